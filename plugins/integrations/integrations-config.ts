import { z } from 'atende/plugin';

/**
 * pluginConfig.integrations (ATENDE_PLUGIN_INTEGRATIONS_<KEY>). Every call's time limit, times the
 * attempts, stays under the server's stepTimeoutMs, so a silent service still hands the ticket over.
 */
export const integrationsConfig = z.object({
  timeoutMs: z.coerce.number().int().min(100).max(120_000).default(8_000),
  /** n8n and webhook: tries of a call that got no answer or HTTP 5xx/429, the delay doubling from retryDelayMs. */
  attempts: z.coerce.number().int().min(1).max(5).default(3),
  retryDelayMs: z.coerce.number().int().min(0).max(30_000).default(500),
  maxResponseBytes: z.coerce.number().int().min(1024).max(10_000_000).default(256 * 1024),
  maxMediaBytes: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(16 * 1024 * 1024),
  /** Dialogflow's API root: a regional endpoint (https://europe-west1-dialogflow.googleapis.com), or a local service of the same protocol. */
  dialogflowUrl: z.url({ protocol: /^https?$/ }).default('https://dialogflow.googleapis.com'),
});

export type IntegrationsConfig = z.infer<typeof integrationsConfig>;
