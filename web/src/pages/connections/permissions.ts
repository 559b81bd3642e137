import type { Profile, SessionUser } from '../../api/types';

/** The connections page's rules (spec core §6): only admins hold them; super users hold every rule. */
export type ConnectionsPermission =
  | 'connections-page:actionButtons'
  | 'connections-page:addConnection'
  | 'connections-page:editOrDeleteConnection';

const RULES: Record<Profile, ConnectionsPermission[]> = {
  admin: ['connections-page:actionButtons', 'connections-page:addConnection', 'connections-page:editOrDeleteConnection'],
  supervisor: [],
  user: [],
};

export function can(user: SessionUser | null, permission: ConnectionsPermission): boolean {
  return user !== null && (user.super || RULES[user.profile].includes(permission));
}
