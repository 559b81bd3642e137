import type { PluginApp } from 'atende/plugin';
import { ScheduleSender } from './schedule-sender.js';
import { SchedulesService } from './schedules.service.js';

export interface SchedulesParts {
  service: SchedulesService;
  sender: ScheduleSender;
}

/** Keyed by the plugin's app: one server (one app) builds them once; a test process may run several servers. */
const built = new WeakMap<PluginApp, SchedulesParts>();

/** The plugin's service and sender, built once for its app and shared by its routes, jobs and hooks. */
export function schedulesOf(app: PluginApp): SchedulesParts {
  let parts = built.get(app);
  if (!parts) {
    parts = { service: new SchedulesService(app), sender: new ScheduleSender(app) };
    built.set(app, parts);
  }
  return parts;
}
