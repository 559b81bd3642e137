import type { Profile, SessionUser } from '../../api/types';

/** The user modal's rules (spec core §6): only admins hold them; super users hold every rule. */
export type UserModalPermission = 'user-modal:editProfile' | 'user-modal:editQueues';

const RULES: Record<Profile, UserModalPermission[]> = {
  admin: ['user-modal:editProfile', 'user-modal:editQueues'],
  supervisor: [],
  user: [],
};

export function can(user: SessionUser | null, permission: UserModalPermission): boolean {
  return user !== null && (user.super || RULES[user.profile].includes(permission));
}
