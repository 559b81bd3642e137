import type { PluginApp } from 'atende/plugin';
import { BotHttp } from './drivers/bot-http.js';
import { driversFor } from './drivers/index.js';
import { IntegrationBot } from './integration-bot.js';
import type { IntegrationsConfig } from './integrations-config.js';
import { IntegrationsService } from './integrations.service.js';
import { TestSession } from './test-session.js';

export interface IntegrationsParts {
  service: IntegrationsService;
  bot: IntegrationBot;
  testSession: TestSession;
}

/** Keyed by the plugin's app: one server (one app) builds them once; a test process may run several servers. */
const built = new WeakMap<PluginApp, IntegrationsParts>();

export function integrationsOf(app: PluginApp<IntegrationsConfig>): IntegrationsParts {
  let parts = built.get(app as PluginApp);
  if (!parts) {
    const { config } = app;
    const service = new IntegrationsService(app as PluginApp);
    const http = new BotHttp(app as PluginApp, config);
    const drivers = driversFor({ attempts: config.attempts, delayMs: config.retryDelayMs }, config.dialogflowUrl);
    parts = { service, bot: new IntegrationBot(app, service, drivers, http), testSession: new TestSession(app as PluginApp, service, drivers, http) };
    built.set(app as PluginApp, parts);
  }
  return parts;
}
