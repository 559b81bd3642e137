import type { Fence } from '../../cluster/session-leases.js';
import type { ConnectionRecord, ConnectionStore, SessionView, StatusPatch } from '../../channels/connection-store.js';
import type { Database } from '../../db/database.js';
import { Whatsapp } from './whatsapp.model.js';

/** A connection with whether its company is blocked (billing), which decides if its session runs. */
function records(db: Database) {
  return db('whatsapps')
    .join('companies', 'companies.id', 'whatsapps.companyId')
    .select('whatsapps.id', 'whatsapps.companyId', 'whatsapps.provider', 'whatsapps.number', db.raw('?? is not null as ??', ['companies.blockedAt', 'blocked']));
}

function toRecord(row: Omit<ConnectionRecord, 'blocked'> & { blocked: unknown }): ConnectionRecord {
  // SQLite answers 0/1, PostgreSQL a boolean.
  return { id: row.id, companyId: row.companyId, provider: row.provider, number: row.number, blocked: Boolean(row.blocked) };
}

/** The channel layer's reads and writes on the whatsapps table. */
export class WhatsappConnections implements ConnectionStore {
  constructor(private readonly db: Database) {}

  async all(): Promise<ConnectionRecord[]> {
    return (await records(this.db).orderBy('whatsapps.id')).map(toRecord);
  }

  async find(connectionId: number): Promise<ConnectionRecord | undefined> {
    const row = await records(this.db).where('whatsapps.id', connectionId).first();
    return row ? toRecord(row) : undefined;
  }

  async ofCompany(companyId: number): Promise<ConnectionRecord[]> {
    return (await records(this.db).where('whatsapps.companyId', companyId).orderBy('whatsapps.id')).map(toRecord);
  }

  async saveStatus(connectionId: number, patch: StatusPatch, fence: Fence): Promise<SessionView | undefined> {
    const current = this.db('sessionLeases').where({ connectionId, nodeId: fence.nodeId, token: fence.token }).select(this.db.raw('1'));
    const written = await Whatsapp.query(this.db).findById(connectionId).whereExists(current).patch(patch);
    if (written === 0) return undefined;
    const row = await Whatsapp.query(this.db).findById(connectionId);
    if (!row) return undefined;
    return { id: row.id, status: row.status, qrcode: row.qrcode, retries: row.retries, updatedAt: row.updatedAt, number: row.number, node: fence.nodeId };
  }
}
