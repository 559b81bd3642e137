import type { PluginApp } from 'atende/plugin';
import { PromptBot } from './prompt-bot.js';
import type { PromptsConfig } from './prompts-config.js';
import { PromptsService } from './prompts.service.js';

export interface PromptsParts {
  service: PromptsService;
  bot: PromptBot;
}

/** Keyed by the plugin's app: one server (one app) builds them once; a test process may run several servers. */
const built = new WeakMap<PluginApp, PromptsParts>();

export function promptsOf(app: PluginApp<PromptsConfig>): PromptsParts {
  let parts = built.get(app as PluginApp);
  if (!parts) {
    const service = new PromptsService(app as PluginApp);
    parts = { service, bot: new PromptBot(app, service) };
    built.set(app as PluginApp, parts);
  }
  return parts;
}
