import type { Knex } from 'knex';
import { z } from 'zod';
import type { Infrastructure } from '../../infrastructure.js';
import { NotFoundError } from '../../errors.js';
import { Events } from '../../events/event-bus.js';
import { validate } from '../../http/validate.js';
import { Setting } from './setting.model.js';
import { isSettingKey, SETTING_KEYS, SETTINGS, type SettingKey, type SettingValue } from './settings.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';

/**
 * Company settings: one row per (company, key), created with the defaults when the company is.
 * A key missing from the table (a company older than the key) reads as its default.
 */
export class SettingsService {
  constructor(private readonly infra: Infrastructure) {}

  /** Writes every key's default (or the given override, validated) for a new company. */
  async createDefaults(companyId: number, db: Knex, overrides: Partial<Record<SettingKey, string>> = {}): Promise<void> {
    const now = new Date().toISOString();
    const rows = SETTING_KEYS.map((key) => ({
      companyId,
      key,
      value: overrides[key] === undefined ? SETTINGS[key].default : this.parse(key, overrides[key]),
      createdAt: now,
      updatedAt: now,
    }));
    await db(Setting.tableName).insert(rows);
  }

  /** Every setting of the company, in the table's order. */
  async list(companyId: number, db: Knex = this.infra.db): Promise<SettingValue[]> {
    const stored = await this.storedValues([companyId], SETTING_KEYS, db);
    return SETTING_KEYS.map((key) => ({ key, value: stored.get(`${companyId}:${key}`) ?? SETTINGS[key].default }));
  }

  /** One setting's value; an unknown key is 404 ERR_NO_SETTING_FOUND. */
  async get(companyId: number, key: string, db: Knex = this.infra.db): Promise<string> {
    const known = this.knownKey(key);
    const stored = await this.storedValues([companyId], [known], db);
    return stored.get(`${companyId}:${known}`) ?? SETTINGS[known].default;
  }

  /** The value of one key for several companies at once (company lists). */
  async valuesOf(companyIds: number[], key: SettingKey, db: Knex = this.infra.db): Promise<Map<number, string>> {
    const stored = await this.storedValues(companyIds, [key], db);
    return new Map(companyIds.map((id) => [id, stored.get(`${id}:${key}`) ?? SETTINGS[key].default]));
  }

  /**
   * Validates and stores a value without announcing it: for callers that write inside their own
   * transaction and call announce() after it commits.
   */
  async save(companyId: number, key: string, value: string, db: Knex): Promise<SettingValue> {
    const known = this.knownKey(key);
    const parsed = this.parse(known, value);
    const row = await Setting.query(db).findOne({ companyId, key: known });
    if (row) await row.$query(db).patch({ value: parsed });
    else await Setting.query(db).insert({ companyId, key: known, value: parsed });
    return { key: known, value: parsed };
  }

  /** PUT /api/settings/:key: store, then tell the company's sockets and the event bus. */
  async update(companyId: number, key: string, value: string): Promise<SettingValue> {
    const setting = await this.infra.db.transaction((trx) => this.save(companyId, key, value, trx));
    await this.announce(companyId, setting);
    return setting;
  }

  async announce(companyId: number, setting: SettingValue): Promise<void> {
    this.infra.realtime.publish(companyId, `company-${companyId}-settings`, { action: 'update', setting });
    await this.infra.bus.emit(Events.settingUpdated, companyId, setting);
  }

  private knownKey(key: string): SettingKey {
    if (!isSettingKey(key)) throw new NotFoundError(ErrorCode.ERR_NO_SETTING_FOUND, `There is no setting named ${key}`);
    return key;
  }

  /** A value the key allows (400 ERR_VALIDATION "value: …" otherwise), in its stored form. */
  private parse(key: SettingKey, value: string): string {
    return validate(z.object({ value: SETTINGS[key].schema }), { value }).value;
  }

  /** Stored values keyed by `${companyId}:${key}`. */
  private async storedValues(companyIds: number[], keys: readonly SettingKey[], db: Knex): Promise<Map<string, string>> {
    if (companyIds.length === 0) return new Map();
    const rows = await Setting.query(db).whereIn('companyId', companyIds).whereIn('key', keys);
    return new Map(rows.map((row) => [`${row.companyId}:${row.key}`, row.value]));
  }
}
