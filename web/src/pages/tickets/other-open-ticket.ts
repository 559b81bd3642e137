import { ApiError } from '../../api/client';
import { ErrorCode } from '../../api/errors';
import type { OtherOpenTicket } from '../../api/types';

/**
 * The contact's other open ticket a 409 ERR_OTHER_OPEN_TICKET names (its message is that ticket as
 * JSON); null for any other failure, or when the server could not name it (a race the database decided).
 */
export function otherOpenTicket(err: unknown): OtherOpenTicket | null {
  if (!(err instanceof ApiError) || err.code !== ErrorCode.ERR_OTHER_OPEN_TICKET) return null;
  try {
    const parsed = JSON.parse(err.message) as Partial<OtherOpenTicket> | null;
    return parsed && typeof parsed.uuid === 'string' ? (parsed as OtherOpenTicket) : null;
  } catch {
    return null;
  }
}
