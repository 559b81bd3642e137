import { BaseModel } from '../../db/base.model.js';

/** The spec's plan flags: stored as plan_features rows, answered as booleans of the plan. */
export const PLAN_FLAGS = [
  'useCampaigns',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
] as const;

export type PlanFlag = (typeof PLAN_FLAGS)[number];

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
