import type { ConnectionRecord, ConnectionStore, SessionView, StatusPatch } from '../../channels/connection-store.js';
import type { Database } from '../../db/database.js';
import { Whatsapp } from './whatsapp.model.js';

const RECORD = ['id', 'companyId', 'provider', 'number'] as const;

/** The channel layer's reads and writes on the whatsapps table. */
export class WhatsappConnections implements ConnectionStore {
  constructor(private readonly db: Database) {}

  async all(): Promise<ConnectionRecord[]> {
    return Whatsapp.query(this.db).select(...RECORD).orderBy('id');
  }

  async find(connectionId: number): Promise<ConnectionRecord | undefined> {
    return Whatsapp.query(this.db).findById(connectionId).select(...RECORD);
  }

  async saveStatus(connectionId: number, patch: StatusPatch): Promise<SessionView | undefined> {
    const row = await Whatsapp.query(this.db).patchAndFetchById(connectionId, patch);
    if (!row) return undefined;
    return { id: row.id, status: row.status, qrcode: row.qrcode, retries: row.retries, updatedAt: row.updatedAt, number: row.number };
  }
}
