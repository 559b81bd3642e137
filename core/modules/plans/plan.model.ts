import { BaseModel } from '../../db/base.model.js';

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

export class Plan extends BaseModel {
  static override tableName = 'plans';
  static override booleanFields = [...PLAN_FLAGS];

  name!: string;
  users!: number;
  connections!: number;
  queues!: number;
  value!: number | string;
  useCampaigns!: boolean;
  useKanban!: boolean;
  useOpenAi!: boolean;
  useIntegrations!: boolean;
  useSchedules!: boolean;
  useInternalChat!: boolean;
  useExternalApi!: boolean;

  override $parseDatabaseJson(json: Record<string, unknown>): Record<string, unknown> {
    const parsed = super.$parseDatabaseJson(json);
    // PostgreSQL answers numeric columns as strings.
    if (typeof parsed.value === 'string') parsed.value = Number(parsed.value);
    return parsed;
  }
}
