import type { QueueRef } from '../../api/types';

export type ConnectionStatus = 'OPENING' | 'qrcode' | 'PAIRING' | 'CONNECTED' | 'DISCONNECTED' | 'TIMEOUT';

export type Provider = 'baileys' | 'simulator';

export const PROVIDERS: Provider[] = ['baileys', 'simulator'];

/** A WhatsApp connection as GET /api/whatsapp answers it (the token only reaches admins). */
export interface Connection {
  id: number;
  name: string;
  status: ConnectionStatus;
  qrcode: string;
  retries: number;
  number: string;
  updatedAt: string;
  isDefault: boolean;
  provider: Provider;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  timeToTransfer: number | null;
  transferQueueId: number | null;
  promptId: number | null;
  integrationId: number | null;
  token?: string | null;
  queues: QueueRef[];
}

/** What a company-{id}-whatsappSession frame carries about one connection. */
export type SessionState = Pick<Connection, 'id' | 'status' | 'qrcode' | 'retries' | 'updatedAt' | 'number'>;

/** Statuses that need someone's attention: the menu shows its '!' badge while any connection has one. */
export const ATTENTION_STATUSES: ConnectionStatus[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];
