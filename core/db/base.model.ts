import objection from 'objection';

const { Model } = objection;

/**
 * What every model shares: timestamps written as UTC ISO strings (the same text on SQLite and
 * PostgreSQL), booleans read back as booleans (SQLite stores 0/1) and dates as ISO strings.
 */
export class BaseModel extends Model {
  id!: number;
  createdAt!: string;
  updatedAt!: string;

  /** Columns (camelCase) stored as booleans. */
  static booleanFields: string[] = [];
  /** Whether the table has created_at/updated_at. */
  static timestamps = true;

  override $beforeInsert(): void {
    if (!(this.constructor as typeof BaseModel).timestamps) return;
    const now = new Date().toISOString();
    this.createdAt ??= now;
    this.updatedAt ??= now;
  }

  override $beforeUpdate(): void {
    if (!(this.constructor as typeof BaseModel).timestamps) return;
    this.updatedAt = new Date().toISOString();
  }

  override $parseDatabaseJson(json: objection.Pojo): objection.Pojo {
    const parsed = super.$parseDatabaseJson(json);
    for (const [key, value] of Object.entries(parsed)) {
      if (value instanceof Date) parsed[key] = value.toISOString();
    }
    for (const field of (this.constructor as typeof BaseModel).booleanFields) {
      if (typeof parsed[field] === 'number') parsed[field] = parsed[field] === 1;
    }
    return parsed;
  }
}
