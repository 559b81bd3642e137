import { lazy } from 'react';
import { ApiOutlined } from '@ant-design/icons';
import { definePluginWeb, isAdmin, planAllows, type Gate } from 'atende/web';

const useExternalApi = planAllows('useExternalApi');
const admins: Gate = (ctx) => useExternalApi(ctx) && isAdmin(ctx);

export default definePluginWeb({
  name: 'messages-api',
  translations: async (language) => (await import('./messages-api.i18n')).messagesApiTranslations[language],
  pages: [
    {
      path: '/messages-api',
      component: lazy(() => import('./messages-api-page')),
      gate: useExternalApi,
      deniedKey: 'session.noPermission',
      menu: { href: '/messages-api', labelKey: 'menu', icon: <ApiOutlined />, section: 'admin' },
    },
  ],
  // The connection's token: made, replaced and revoked from its dialog.
  connectionSections: [{ key: 'token', component: lazy(() => import('./token-section')), gate: admins }],
});
