import { BaseModel } from '../../db/base.model.js';

/**
 * One attendance of a ticket: from the moment it is queued to its end (and rating). The dashboard
 * reads waiting and support times from these rows; a ticket reopened later gets a new row.
 */
export class TicketTracking extends BaseModel {
  static override tableName = 'ticketTracking';
  static override booleanFields = ['rated'];

  companyId!: number;
  ticketId!: number;
  whatsappId!: number | null;
  userId!: number | null;
  queueId!: number | null;
  queuedAt!: string | null;
  startedAt!: string | null;
  finishedAt!: string | null;
  /** When the rating question was sent; set and finishedAt null: the next answer is the rating. */
  ratingAt!: string | null;
  chatbotAt!: string | null;
  rated!: boolean;
  /** The customer's answer, 1 to 3. */
  rate!: number | null;
  /** Minutes from queued to taken, once taken; and from taken to the rating question (or the end), once ended. Written by the database. */
  waitMinutes!: number | null;
  supportMinutes!: number | null;
}
