import { lazy } from 'react';
import { definePluginWeb, isAdmin, planAllows, type Gate } from 'atende/web';

const useExternalApi = planAllows('useExternalApi');
const admins: Gate = (ctx) => useExternalApi(ctx) && isAdmin(ctx);

export default definePluginWeb({
  name: 'messages-api',
  translations: async (language) => (await import('./messages-api.i18n')).messagesApiTranslations[language],
  pages: [],
  // The connection's token: made, replaced and revoked from its dialog.
  connectionSections: [{ key: 'token', component: lazy(() => import('./token-section')), gate: admins }],
});
