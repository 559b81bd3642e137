import { BaseModel } from 'atende/plugin';
import type { ScheduleStatus } from './schedule.contract.js';

export { SCHEDULE_STATUSES, type ScheduleStatus } from './schedule.contract.js';

export class Schedule extends BaseModel {
  static override tableName = 'schedules';

  companyId!: number;
  contactId!: number;
  userId!: number | null;
  ticketId!: number | null;
  messageId!: number | null;
  body!: string;
  /** UTC ISO instant. */
  sendAt!: string;
  sentAt!: string | null;
  status!: ScheduleStatus;
  error!: string | null;
  /** Stored name in MediaStorage. */
  mediaPath!: string | null;
  mediaName!: string | null;
}
