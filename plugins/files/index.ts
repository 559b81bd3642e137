import { definePlugin } from 'atende/plugin';
import { fileListsRoutes } from './file-lists.routes.js';
import { filesOf } from './files-of.js';

/** File lists (spec: File list entity, Files page): for every company, no plan flag. */
export default definePlugin({
  name: 'files',
  migrations: 'migrations',
  web: 'web',
  routes: fileListsRoutes,
  // Campaigns send lists too: `app.plugin('files')` is the FileListSender (send, enqueue in a transaction).
  provides: (app) => filesOf(app).sender,
});
