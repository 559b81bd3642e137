import { BaseModel } from '../../core/db/base.model.js';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { User } from '../../core/modules/users/user.model.js';
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

  contact?: Contact;
  user?: User | null;

  static override get relationMappings() {
    return {
      contact: { relation: BaseModel.BelongsToOneRelation, modelClass: Contact, join: { from: 'schedules.contactId', to: 'contacts.id' } },
      user: { relation: BaseModel.BelongsToOneRelation, modelClass: User, join: { from: 'schedules.userId', to: 'users.id' } },
    };
  }
}
