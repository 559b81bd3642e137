import { BaseModel } from '../../db/base.model.js';

/**
 * One feature or limit of a plan (unique per plan and key). A flag's row says whether the plan has
 * it (`enabled`, `limit` null); a limit's row holds the plan's number (`limit`; `enabled` unused).
 * A flag without a row is off; a limit without a row is its declared default.
 */
export class PlanFeature extends BaseModel {
  static override tableName = 'planFeatures';
  static override booleanFields = ['enabled'];
  static override timestamps = false;

  planId!: number;
  key!: string;
  enabled!: boolean;
  limit!: number | null;
}
