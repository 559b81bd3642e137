import { lazy } from 'react';
import { SendOutlined } from '@ant-design/icons';
import { definePluginWeb, isAdmin, planAllows, type Gate } from 'atende/web';

const useExternalApi = planAllows('useExternalApi');
const admins: Gate = (ctx) => useExternalApi(ctx) && isAdmin(ctx);

export default definePluginWeb({
  name: 'webhooks',
  translations: async (language) => (await import('./webhooks.i18n')).webhooksTranslations[language],
  pages: [
    {
      path: '/webhooks',
      component: lazy(() => import('./webhooks-page')),
      gate: admins,
      deniedKey: 'session.noPermission',
      // Beside the messages API page: the developers' part of the admin menu.
      menu: { href: '/webhooks', labelKey: 'menu', icon: <SendOutlined />, section: 'admin' },
    },
  ],
});
