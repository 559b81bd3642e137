import { definePlugin, Events } from 'atende/plugin';
import { integrationsConfig } from './integrations-config.js';
import { integrationsOf } from './integrations-of.js';
import { integrationsRoutes } from './integrations.routes.js';

/** Queue integrations (spec: QueueIntegration, /queue-integration): n8n, webhook, typebot and dialogflow bots; plan flag useIntegrations. */
export default definePlugin({
  name: 'integrations',
  flag: 'useIntegrations',
  config: integrationsConfig,
  migrations: 'migrations',
  web: 'web',
  routes: integrationsRoutes,
  steps: {
    answer: (turn, app) => integrationsOf(app).bot.answer(turn),
  },
  events: {
    // Resolving ends the integration's hold and its service's session (the core clears the ticket's integrationId).
    [Events.ticketClosed]: {
      durable: true,
      handle: async (event, app) => integrationsOf(app).bot.ended(event.companyId!, event.payload.ticket.id),
    },
  },
});
