import { definePlugin } from 'atende/plugin';
import { fileListsRoutes } from './file-lists.routes.js';

export { FileListSender, type FileListDelivery } from './file-list-sender.js';

/** File lists (spec: File list entity, Files page): for every company, no plan flag. */
export default definePlugin({
  name: 'files',
  migrations: 'migrations',
  web: 'web',
  routes: fileListsRoutes,
});
