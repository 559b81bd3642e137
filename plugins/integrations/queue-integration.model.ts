import { BaseModel } from 'atende/plugin';
import type { IntegrationType } from './integration.contract.js';

export class QueueIntegration extends BaseModel {
  static override tableName = 'queue_integrations';

  companyId!: number;
  type!: IntegrationType;
  name!: string;
  projectName!: string;
  /** Sealed (app.secrets): dialogflow's service-account JSON. */
  jsonContent!: string;
  language!: string;
  /** Column url_n8n; the API's urlN8N. */
  urlN8n!: string;
  typebotSlug!: string;
  typebotExpires!: number;
  typebotKeywordFinish!: string;
  typebotKeywordRestart!: string;
  typebotUnknownMessage!: string;
  typebotDelayMessage!: number;
  typebotRestartMessage!: string;
  /** Sealed: the HMAC key of n8n and webhook calls. */
  webhookSecret!: string;
  lastError!: string | null;
  lastErrorAt!: string | null;
}

/** An integration's hold on a ticket for its current attendance (see the migration). */
export class IntegrationSession extends BaseModel {
  static override tableName = 'integration_sessions';
  static override booleanFields = ['active'];

  companyId!: number;
  ticketId!: number;
  integrationId!: number;
  active!: boolean;
  /** typebot's session, null until one is started (or after a restart or expiry). */
  sessionId!: string | null;
  /** The customer's message the hold began with; older ones are not answered. */
  firstMessageId!: number;
  lastActivityAt!: string;
}
