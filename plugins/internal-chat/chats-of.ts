import type { PluginApp } from 'atende/plugin';
import { ChatsService } from './chats.service.js';

/** Keyed by the plugin's app: one server builds the service once; a test process may run several servers. */
const built = new WeakMap<PluginApp, ChatsService>();

export function chatsOf(app: PluginApp): ChatsService {
  let service = built.get(app);
  if (!service) {
    service = new ChatsService(app);
    built.set(app, service);
  }
  return service;
}
