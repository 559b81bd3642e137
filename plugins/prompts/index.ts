import { definePlugin, Events } from 'atende/plugin';
import { promptsConfig } from './prompts-config.js';
import { promptsOf } from './prompts-of.js';
import { promptsRoutes } from './prompts.routes.js';

/** AI prompts (spec: Prompt entity, Prompts page): an OpenAI-compatible server answers customers; plan flag useOpenAi. */
export default definePlugin({
  name: 'prompts',
  flag: 'useOpenAi',
  config: promptsConfig,
  migrations: 'migrations',
  web: 'web',
  routes: promptsRoutes,
  steps: {
    answer: (turn, app) => promptsOf(app).bot.answer(turn),
  },
  events: {
    // Resolving ends the prompt's hold for this attendance (the core clears the ticket's promptId).
    [Events.ticketClosed]: {
      durable: true,
      handle: async (event, app) => promptsOf(app).bot.ended(event.companyId!, event.payload.ticket.id),
    },
  },
});
