import { definePlugin } from 'atende/plugin';
import { JOIN_ANNOUNCEMENTS } from './announcement.contract.js';
import { MANAGERS_ROOM, READERS_ROOM } from './announcement-view.js';
import { announcementsRoutes } from './announcements.routes.js';

/**
 * Announcements (spec: Announcements page and entity): written by super users, shown to every
 * company's users in the top bar. No plan flag: every company has them.
 */
export default definePlugin({
  name: 'announcements',
  migrations: 'migrations',
  web: 'web',
  routes: announcementsRoutes,
  joins: {
    // company-announcement: super users hear every change (their page), the others what they may see.
    [JOIN_ANNOUNCEMENTS]: (user) => (user.super ? MANAGERS_ROOM : READERS_ROOM),
  },
});
