import type { Fence } from '../cluster/session-leases.js';
import type { ConnectionStatus } from './driver.js';

/** A WhatsApp connection as the channel layer sees it. */
export interface ConnectionRecord {
  id: number;
  companyId: number;
  /** Which driver factory serves it (`whatsapps.provider`). */
  provider: string;
  /** The number it was last paired with; '' when none. */
  number: string;
  /** Its company is blocked for an unpaid invoice: the session does not run. */
  blocked: boolean;
}

/** A driver's status as written on its connection; absent fields stay as they are. */
export interface StatusPatch {
  status: ConnectionStatus;
  qrcode: string;
  retries?: number;
  number?: string;
}

/** What `company-{id}-whatsappSession` carries: `{ action: 'update', session }`. */
export interface SessionView {
  id: number;
  status: string;
  qrcode: string;
  retries: number;
  updatedAt: string;
  number: string;
  /** The node that wrote it: the session's owner. */
  node: string;
}

/**
 * The few reads and writes the session manager and the drivers make on connections. The WhatsApp
 * module owns the table and implements this; the container hands it in, so the channel layer stays
 * below the modules.
 */
export interface ConnectionStore {
  /** Every connection, by id. */
  all(): Promise<ConnectionRecord[]>;
  find(connectionId: number): Promise<ConnectionRecord | undefined>;
  ofCompany(companyId: number): Promise<ConnectionRecord[]>;
  /**
   * Writes a status if the fence's lease is still the connection's current one; answers the
   * connection as saved, or undefined when it was deleted or taken over meanwhile.
   */
  saveStatus(connectionId: number, patch: StatusPatch, fence: Fence): Promise<SessionView | undefined>;
}
