import { lazy } from 'react';
import { KeyOutlined } from '@ant-design/icons';
import { definePluginWeb, isAdmin, planAllows, type Gate } from 'atende/web';

const useExternalApi = planAllows('useExternalApi');
const admins: Gate = (ctx) => useExternalApi(ctx) && isAdmin(ctx);

export default definePluginWeb({
  name: 'api-tokens',
  translations: async (language) => (await import('./api-tokens.i18n')).apiTokensTranslations[language],
  pages: [
    {
      path: '/api-tokens',
      component: lazy(() => import('./api-tokens-page')),
      gate: admins,
      deniedKey: 'session.noPermission',
      menu: { href: '/api-tokens', labelKey: 'menu', icon: <KeyOutlined />, section: 'admin' },
    },
  ],
});
