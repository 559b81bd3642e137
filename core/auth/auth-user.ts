import type { Profile } from '../contract/views.js';

export type { Profile };

/** The caller of a request or socket, as the token and the users table say now. */
export interface AuthUser {
  id: number;
  companyId: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  financial: boolean;
  /**
   * Set when the caller is a company API token rather than a person's session: the token's id,
   * for the log and for whatever records who did something. Such a caller acts with the admin
   * profile inside its scopes only (core/auth/api-scopes.ts).
   */
  apiTokenId?: number;
}

export function isAdmin(user: AuthUser): boolean {
  return user.profile === 'admin' || user.super;
}
