import { lazy } from 'react';
import { NotificationOutlined } from '@ant-design/icons';
import { definePluginWeb, isSuper } from 'atende/web';
import { AnnouncementsBell } from './announcements-bell';

export default definePluginWeb({
  name: 'announcements',
  translations: async (language) => (await import('./announcements.i18n')).announcementsTranslations[language],
  pages: [
    {
      path: '/announcements',
      component: lazy(() => import('./announcements-page')),
      gate: isSuper,
      deniedKey: 'session.noPermission',
      menu: { href: '/announcements', labelKey: 'title', icon: <NotificationOutlined />, section: 'admin', before: '/settings' },
    },
  ],
  // Super users write them on the page; everyone else reads them here.
  header: [{ component: AnnouncementsBell, gate: (ctx) => !isSuper(ctx) }],
});
