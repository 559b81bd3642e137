import { lazy } from 'react';
import { FolderOpenOutlined } from '@ant-design/icons';
import { definePluginWeb, isAdmin } from 'atende/web';

export default definePluginWeb({
  name: 'files',
  translations: async (language) => (await import('./files.i18n')).filesTranslations[language],
  pages: [
    {
      path: '/files',
      component: lazy(() => import('./files-page')),
      gate: isAdmin,
      deniedKey: 'session.accessDenied',
      menu: { href: '/files', labelKey: 'menu', icon: <FolderOpenOutlined />, section: 'admin' },
    },
  ],
  // Every agent sends a list into the ticket they write to.
  composerActions: [{ key: 'send', labelKey: 'send.button', icon: <FolderOpenOutlined />, panel: lazy(() => import('./send-file-list')) }],
});
