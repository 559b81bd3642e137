import type { PluginApp } from 'atende/plugin';
import { ApiTokensService } from './api-tokens.service.js';
import { RateLimit } from './rate-limit.js';
import { SendService } from './send.service.js';

interface MessagesApi {
  tokens: ApiTokensService;
  sender: SendService;
  rateLimit: RateLimit;
}

const built = new WeakMap<PluginApp, MessagesApi>();

/** The plugin's services, built once per server. */
export function messagesApiOf(app: PluginApp<{ rateLimitPerMinute: number }>): MessagesApi {
  let api = built.get(app);
  if (!api) {
    api = { tokens: new ApiTokensService(app), sender: new SendService(app), rateLimit: new RateLimit(app.config.rateLimitPerMinute) };
    built.set(app, api);
  }
  return api;
}
