import { BaseModel } from 'atende/plugin';
import type { DeliveryStatus } from './webhooks.contract.js';

export class WebhookEndpoint extends BaseModel {
  static override tableName = 'webhook_endpoints';
  static override booleanFields = ['active'];

  companyId!: number;
  url!: string;
  /** JSON array of event names. */
  events!: string;
  active!: boolean;
  /** Sealed with app.secrets. */
  secret!: string;
}

export class WebhookDelivery extends BaseModel {
  static override tableName = 'webhook_deliveries';

  companyId!: number;
  endpointId!: number;
  eventId!: string;
  event!: string;
  orderKey!: string;
  sourceKey!: string;
  /** A bigint: a string on PostgreSQL; only compared in queries. */
  eventSeq!: number | string;
  payload!: string;
  status!: DeliveryStatus;
  attempts!: number;
  lastStatusCode!: number | null;
  lastError!: string | null;
  lastAttemptAt!: string | null;
  nextAttemptAt!: string;
  expiresAt!: string;
  leasedUntil!: string | null;
  deliveredAt!: string | null;
}
