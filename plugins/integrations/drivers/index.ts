import type { IntegrationType } from '../integration.contract.js';
import { DialogflowDriver } from './dialogflow.js';
import type { IntegrationDriver } from './driver.js';
import { TypebotDriver } from './typebot.js';
import { WebhookDriver } from './webhook.js';

/** One driver per type (spec §9); n8n is a webhook whose URL is an n8n flow's. */
export function driversFor(retry: { attempts: number; delayMs: number }, dialogflowUrl: string): Record<IntegrationType, IntegrationDriver> {
  const webhook = new WebhookDriver(retry);
  return { n8n: webhook, webhook, typebot: new TypebotDriver(), dialogflow: new DialogflowDriver(dialogflowUrl) };
}
