import { BaseModel } from 'atende/plugin';

export const SHIPPING_STATES = ['pending', 'queued', 'awaiting', 'sent', 'delivered', 'read', 'failed', 'skipped'] as const;
export type ShippingState = (typeof SHIPPING_STATES)[number];
/** States a contact ends in. `awaiting` (a confirmation asked, no reply yet) ends when its window closes. */
export const FINAL_STATES: readonly ShippingState[] = ['sent', 'delivered', 'read', 'failed', 'skipped'];

/** One contact of a running campaign and how far its messages got. */
export class Shipping extends BaseModel {
  static override tableName = 'campaign_shippings';

  campaignId!: number;
  companyId!: number;
  number!: string;
  name!: string;
  email!: string;
  contactListItemId!: number | null;
  contactId!: number | null;
  state!: ShippingState;
  failureReason!: string | null;
  message!: string;
  confirmationMessage!: string | null;
  waMessageId!: string | null;
  confirmationWaMessageId!: string | null;
  waitMs!: number | null;
  confirmationRequestedAt!: string | null;
  confirmedAt!: string | null;
  sentAt!: string | null;
  deliveredAt!: string | null;
}
