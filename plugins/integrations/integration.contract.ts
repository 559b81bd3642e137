/**
 * The queue-integrations API's answers, declared once for the server and the plugin's pages (which
 * import them as types). No imports, so a page pulls in nothing of the server.
 */

/** Spec §9. dialogflow is a type of the select; its driver is drivers/dialogflow.ts. */
export const INTEGRATION_TYPES = ['n8n', 'webhook', 'typebot', 'dialogflow'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** Dialogflow's languages (spec §9). */
export const INTEGRATION_LANGUAGES = ['pt-BR', 'en', 'es'] as const;

/** Typebot defaults of spec §9. */
export const INTEGRATION_DEFAULTS = {
  language: 'pt-BR',
  typebotExpires: 1,
  typebotDelayMessage: 1000,
} as const;

/** An integration as the API and the live events show it; its secrets only masked. */
export interface IntegrationView {
  id: number;
  companyId: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  /** Masked (`••••`) when set, '' when not. */
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotDelayMessage: number;
  typebotRestartMessage: string;
  /** The HMAC key of n8n and webhook calls: in full only in the answer that made it, masked after. */
  webhookSecret: string;
  /** Why the last exchange failed (the ticket went to a person), and when; null once one succeeds. */
  lastError: string | null;
  lastErrorAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /queueIntegration (spec §7: queueIntegrations and hasMore). */
export interface IntegrationList {
  queueIntegrations: IntegrationView[];
  hasMore: boolean;
  count: number;
}

/** DELETE /queueIntegration/:id: shown as an info toast. */
export interface IntegrationDeleted {
  message: string;
}

/** What a bot sends to the customer: a text, or a file by URL with a caption. */
export type BotMessage = { text: string } | { mediaUrl: string; caption?: string };

/** POST /queueIntegration/testSession: the service's answer to one message, or why it failed. */
export type TestSessionResult = { ok: true; messages: BotMessage[]; handoff: boolean } | { ok: false; error: string };

/** The frames of company-{id}-queueIntegration. */
export type IntegrationEvent = { action: 'create' | 'update'; queueIntegration: IntegrationView } | { action: 'delete'; queueIntegrationId: number };
