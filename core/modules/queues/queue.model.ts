import { BaseModel } from '../../db/base.model.js';
import type { ScheduleEntry } from '../companies/company.model.js';

export class Queue extends BaseModel {
  static override tableName = 'queues';
  static override get jsonAttributes(): string[] {
    return ['schedules'];
  }

  companyId!: number;
  name!: string;
  color!: string;
  greetingMessage!: string;
  completionMessage!: string;
  outOfHoursMessage!: string;
  ratingMessage!: string;
  orderQueue!: number | null;
  integrationId!: number | null;
  promptId!: number | null;
  schedules!: ScheduleEntry[];
}
