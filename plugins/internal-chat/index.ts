import { definePlugin } from 'atende/plugin';
import { chatsRoutes } from './chats.routes.js';

/** Internal chat between a company's users (spec: Internal chat page, Chat entities): plan flag useInternalChat. */
export default definePlugin({
  name: 'internal-chat',
  flag: 'useInternalChat',
  migrations: 'migrations',
  web: 'web',
  routes: chatsRoutes,
});
