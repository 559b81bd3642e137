import type { ConnectionStatus, WhatsappView } from '../../api/types';

export type { ConnectionStatus, Provider } from '../../api/types';
export { PROVIDERS } from '../../../../core/contract/views';

/** A WhatsApp connection as GET /api/whatsapp answers it (the token only reaches admins). */
export type Connection = WhatsappView;

/** What a company-{id}-whatsappSession frame carries about one connection. */
export type SessionState = Pick<Connection, 'id' | 'status' | 'qrcode' | 'retries' | 'updatedAt' | 'number' | 'node'>;

/** Statuses that need someone's attention: the menu shows its '!' badge while any connection has one. */
export const ATTENTION_STATUSES: ConnectionStatus[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];
