import { lazy } from 'react';
import { DeploymentUnitOutlined } from '@ant-design/icons';
import { definePluginWeb, isAdmin, planAllows, type Gate } from 'atende/web';

const useIntegrations = planAllows('useIntegrations');
const admins: Gate = (ctx) => useIntegrations(ctx) && isAdmin(ctx);
const IntegrationSelect = lazy(() => import('./integration-select'));

export default definePluginWeb({
  name: 'integrations',
  translations: async (language) => (await import('./integrations.i18n')).integrationsTranslations[language],
  pages: [
    {
      path: '/queue-integration',
      component: lazy(() => import('./integrations-page')),
      gate: admins,
      deniedKey: 'session.accessDenied',
      menu: { href: '/queue-integration', labelKey: 'menu', icon: <DeploymentUnitOutlined />, section: 'admin' },
    },
  ],
  // Where an integration attaches: a connection (while the ticket has no queue) or a queue.
  formFields: [
    { form: 'connection', name: 'integrationId', component: IntegrationSelect, gate: useIntegrations },
    { form: 'queue', name: 'integrationId', component: IntegrationSelect, gate: useIntegrations },
  ],
});
