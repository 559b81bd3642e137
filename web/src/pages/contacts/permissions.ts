import type { SessionUser } from '../../api/types';

/** The contacts page's rule (spec core §6): deleting a contact is an admin's (and a super user's). */
export function canDeleteContact(user: SessionUser | null): boolean {
  return user !== null && (user.super || user.profile === 'admin');
}
