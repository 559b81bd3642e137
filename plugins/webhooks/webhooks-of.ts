import type { PluginApp } from 'atende/plugin';
import { DeliveriesService, type WebhooksConfig } from './deliveries.service.js';
import { WebhooksService } from './webhooks.service.js';

interface Webhooks {
  webhooks: WebhooksService;
  deliveries: DeliveriesService;
}

const built = new WeakMap<PluginApp, Webhooks>();

/** The plugin's services, built once per server. */
export function webhooksOf(app: PluginApp<WebhooksConfig>): Webhooks {
  let services = built.get(app);
  if (!services) {
    const webhooks = new WebhooksService(app);
    services = { webhooks, deliveries: new DeliveriesService(app, webhooks) };
    built.set(app, services);
  }
  return services;
}
