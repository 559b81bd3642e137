import {
  BufferJSON,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys';
import type { Database } from '../../db/database.js';
import type { LidMap, LidPair } from './lid-map.js';

/** Created by migrations/20261122000200_core_baileys.ts. */
export const AUTH_TABLE = 'baileys_auth';

const CREDS = 'creds';
// Baileys stores each LID pair twice: "<pn user>" → lid user and "<lid user>_reverse" → pn user.
const REVERSE_SUFFIX = '_reverse';
const WRITE_SLICE = 500;

interface KeyRow {
  keyId: string;
  value: string;
}

function serialise(value: unknown): string {
  return JSON.stringify(value, BufferJSON.replacer);
}

function revive(text: string): unknown {
  return JSON.parse(text, BufferJSON.reviver);
}

/** The LID pairs hidden in a `lid-mapping` write (deletions carry none). */
function lidPairsOf(data: SignalDataSet): LidPair[] {
  return Object.entries(data['lid-mapping'] ?? {})
    .filter(([id, lid]) => lid && !id.endsWith(REVERSE_SUFFIX))
    .map(([pn, lid]) => ({ lid: lid as string, pn }));
}

/**
 * One connection's WhatsApp Web auth state in the database (never in files): one row for the
 * credentials and one row per signal key, every key type Baileys 7 writes included, each value
 * serialised with Baileys' BufferJSON helpers. A new store over the same database picks up where the
 * last one stopped, so a restart does not ask for a new QR.
 */
export class AuthStore {
  /** The signal key store Baileys reads and writes (wrap it with makeCacheableSignalKeyStore). */
  readonly keys: SignalKeyStore;

  constructor(
    private readonly db: Database,
    private readonly whatsappId: number,
    /** Fed with the LID pairs Baileys stores as keys, in the same transaction. */
    private readonly lidMap?: LidMap,
  ) {
    this.keys = {
      get: (type, ids) => this.getKeys(type, ids),
      set: (data) => this.setKeys(data),
      clear: () => this.clear(),
    };
  }

  /** The stored credentials, or fresh ones (a new QR) when there are none. */
  async loadCreds(): Promise<AuthenticationCreds> {
    const row = (await this.db(AUTH_TABLE).where({ whatsappId: this.whatsappId, type: CREDS, keyId: CREDS }).first('value')) as
      | Pick<KeyRow, 'value'>
      | undefined;
    return row ? (revive(row.value) as AuthenticationCreds) : initAuthCreds();
  }

  /** Called on every `creds.update`: Baileys has already merged the update into `creds`. */
  async saveCreds(creds: AuthenticationCreds): Promise<void> {
    await this.db(AUTH_TABLE)
      .insert({ whatsappId: this.whatsappId, type: CREDS, keyId: CREDS, value: serialise(creds), updatedAt: new Date().toISOString() })
      .onConflict(['whatsappId', 'type', 'keyId'])
      .merge(['value', 'updatedAt']);
  }

  /** Forgets credentials and keys (logout, or a new QR asked for). */
  async clear(): Promise<void> {
    await this.db(AUTH_TABLE).where({ whatsappId: this.whatsappId }).delete();
  }

  private async getKeys<T extends keyof SignalDataTypeMap>(type: T, ids: string[]): Promise<{ [id: string]: SignalDataTypeMap[T] }> {
    const found: { [id: string]: SignalDataTypeMap[T] } = {};
    if (ids.length === 0) return found;
    const rows = (await this.db(AUTH_TABLE)
      .where({ whatsappId: this.whatsappId, type })
      .whereIn('keyId', ids)
      .select('keyId', 'value')) as KeyRow[];
    for (const row of rows) {
      const value = revive(row.value);
      // Baileys calls methods of the proto type on these, so a plain object will not do.
      found[row.keyId] = (
        type === 'app-state-sync-key' ? proto.Message.AppStateSyncKeyData.fromObject(value as object) : value
      ) as SignalDataTypeMap[T];
    }
    return found;
  }

  /** Upserts the values and deletes the nulls of one write, all in one transaction. */
  private async setKeys(data: SignalDataSet): Promise<void> {
    const updatedAt = new Date().toISOString();
    await this.db.transaction(async (trx) => {
      for (const [type, values] of Object.entries(data)) {
        const entries = Object.entries(values ?? {});
        const removed = entries.filter(([, value]) => value === null || value === undefined).map(([id]) => id);
        const rows = entries
          .filter(([, value]) => value !== null && value !== undefined)
          .map(([keyId, value]) => ({ whatsappId: this.whatsappId, type, keyId, value: serialise(value), updatedAt }));
        if (removed.length > 0) {
          await trx(AUTH_TABLE).where({ whatsappId: this.whatsappId, type }).whereIn('keyId', removed).delete();
        }
        // In slices: a pre-key upload writes hundreds of keys, and drivers cap bound parameters.
        for (let i = 0; i < rows.length; i += WRITE_SLICE) {
          await trx(AUTH_TABLE)
            .insert(rows.slice(i, i + WRITE_SLICE))
            .onConflict(['whatsappId', 'type', 'keyId'])
            .merge(['value', 'updatedAt']);
        }
      }
      if (this.lidMap) await this.lidMap.remember(lidPairsOf(data), trx);
    });
  }
}
