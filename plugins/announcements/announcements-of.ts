import type { PluginApp } from 'atende/plugin';
import { AnnouncementsService } from './announcements.service.js';

/** Keyed by the plugin's app: one server (one app) builds it once; a test process may run several servers. */
const built = new WeakMap<PluginApp, AnnouncementsService>();

/** The plugin's service, built once for its app and shared by its routes. */
export function announcementsOf(app: PluginApp): AnnouncementsService {
  let service = built.get(app);
  if (!service) {
    service = new AnnouncementsService(app);
    built.set(app, service);
  }
  return service;
}
