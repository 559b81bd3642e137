import type { Actor, Profile } from '../contract/views.js';

export type { Actor, Profile };

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
   * Set when the caller is a company API token rather than a person's session: the token, recorded
   * as the author of what it does (actorOf) and in the log. Such a caller acts with the admin
   * profile inside its scopes only (core/auth/api-scopes.ts); `id` above is the admin who made it.
   */
  apiToken?: { id: number; name: string };
}

/** Who did something, as records, domain events and webhooks tell it: the API token, else the person. */
export function actorOf(user: AuthUser): Actor {
  return user.apiToken ? { type: 'apiToken', id: user.apiToken.id, name: user.apiToken.name } : { type: 'user', id: user.id, name: user.name };
}

export function isAdmin(user: AuthUser): boolean {
  return user.profile === 'admin' || user.super;
}
