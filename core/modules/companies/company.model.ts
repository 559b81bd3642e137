import { BaseModel } from '../../db/base.model.js';
import { Plan } from '../plans/plan.model.js';
import { Setting } from '../settings/setting.model.js';

import type { ScheduleEntry } from '../../contract/views.js';

export type { ScheduleEntry };

export class Company extends BaseModel {
  static override tableName = 'companies';
  static override booleanFields = ['status'];
  static override get jsonAttributes(): string[] {
    return ['schedules'];
  }

  name!: string;
  email!: string;
  phone!: string;
  planId!: number | null;
  status!: boolean;
  dueDate!: string | null;
  /** When billing blocked it for an unpaid invoice; null when not blocked. */
  blockedAt!: string | null;
  recurrence!: string;
  schedules!: ScheduleEntry[];
  billingCustomerId!: string | null;
  plan?: Plan;
  settings?: Setting[];

  static override get relationMappings() {
    return {
      plan: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Plan,
        join: { from: 'companies.planId', to: 'plans.id' },
      },
      settings: {
        relation: BaseModel.HasManyRelation,
        modelClass: Setting,
        join: { from: 'companies.id', to: 'settings.companyId' },
      },
    };
  }
}
