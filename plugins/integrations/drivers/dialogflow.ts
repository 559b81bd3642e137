import { ValidationError } from 'atende/plugin';
import type { BotActions, IntegrationDriver } from './driver.js';

/**
 * Dialogflow (detectIntent with the integration's service-account JSON, projectName and language):
 * not available yet. Saving one is allowed; a turn held by it hands the ticket to a person and the
 * test button answers 400 ERR_INTEGRATION_UNAVAILABLE.
 */
export class DialogflowDriver implements IntegrationDriver {
  reply(): Promise<BotActions> {
    return Promise.reject(new ValidationError('Dialogflow is not available on this server yet', undefined, 'ERR_INTEGRATION_UNAVAILABLE'));
  }
}
