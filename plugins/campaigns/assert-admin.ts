import { ForbiddenError, isAdmin, type AuthUser } from 'atende/plugin';

/** A campaign speaks for the company to a whole list: its writes (and stop, restart, the opt-out list) are the admins'. */
export function assertAdmin(actor: AuthUser): void {
  if (!isAdmin(actor)) throw new ForbiddenError();
}
