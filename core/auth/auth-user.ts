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
}

export function isAdmin(user: AuthUser): boolean {
  return user.profile === 'admin' || user.super;
}
