import type { PluginApp } from 'atende/plugin';
import { FileListSender } from './file-list-sender.js';
import { FileListsService } from './file-lists.service.js';

export interface FilesParts {
  service: FileListsService;
  sender: FileListSender;
}

/** Keyed by the plugin's app: one server (one app) builds them once; a test process may run several servers. */
const built = new WeakMap<PluginApp, FilesParts>();

/** The plugin's service and sender, built once for its app. */
export function filesOf(app: PluginApp): FilesParts {
  let parts = built.get(app);
  if (!parts) {
    const sender = new FileListSender(app);
    parts = { service: new FileListsService(app, sender), sender };
    built.set(app, parts);
  }
  return parts;
}
