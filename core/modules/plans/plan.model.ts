import { BaseModel } from '../../db/base.model.js';

/** A plan's columns: its name, the spec's three counts and its price. Features and limits are PlanFeature rows. */
export class Plan extends BaseModel {
  static override tableName = 'plans';

  name!: string;
  users!: number;
  connections!: number;
  queues!: number;
  value!: number | string;

  override $parseDatabaseJson(json: Record<string, unknown>): Record<string, unknown> {
    const parsed = super.$parseDatabaseJson(json);
    // PostgreSQL answers numeric columns as strings.
    if (typeof parsed.value === 'string') parsed.value = Number(parsed.value);
    return parsed;
  }
}
