import { lazy } from 'react';
import { ContactsOutlined, NotificationOutlined, SettingOutlined, StopOutlined } from '@ant-design/icons';
import { definePluginWeb, isAdmin, planAllows, type Gate } from 'atende/web';

/**
 * The campaign pages open as the spec has them (§2, §6): only while the browser keeps the local
 * 'cshow' flag (`localStorage.setItem('cshow', '1')`) and the company's plan has useCampaigns. A
 * closed gate shows the access-denied message and goes home after 1 s, as other gated pages do;
 * a company whose campaignsEnabled setting is off passes the gate and the API answers
 * ERR_CAMPAIGNS_DISABLED, shown on the page.
 */
const campaignsGate: Gate = (ctx) => ctx.cshow && planAllows('useCampaigns')(ctx);

export default definePluginWeb({
  name: 'campaigns',
  translations: async (language) => {
    const [{ campaignsTranslations }, { reportTranslations }] = await Promise.all([import('./campaigns.i18n'), import('./report/report.i18n')]);
    return { ...campaignsTranslations[language], ...reportTranslations[language] };
  },
  pages: [
    {
      path: '/contact-lists',
      component: lazy(() => import('./contact-lists/contact-lists-page')),
      gate: campaignsGate,
      deniedKey: 'session.noPermission',
      menu: { href: '/contact-lists', labelKey: 'menu.contactLists', icon: <ContactsOutlined />, section: 'main' },
    },
    {
      path: '/contact-lists/:id/contacts',
      component: lazy(() => import('./contact-lists/contact-list-items-page')),
      gate: campaignsGate,
      deniedKey: 'session.noPermission',
    },
    {
      path: '/campaigns',
      component: lazy(() => import('./campaigns/campaigns-page')),
      gate: campaignsGate,
      deniedKey: 'session.noPermission',
      menu: { href: '/campaigns', labelKey: 'menu.campaigns', icon: <NotificationOutlined />, section: 'main', before: '/contact-lists' },
    },
    {
      path: '/campaign-opt-outs',
      component: lazy(() => import('./opt-outs/opt-outs-page')),
      // The list is the admins' (its API answers 403 to others).
      gate: (ctx) => campaignsGate(ctx) && isAdmin(ctx),
      deniedKey: 'session.noPermission',
      menu: { href: '/campaign-opt-outs', labelKey: 'menu.optOuts', icon: <StopOutlined />, section: 'main' },
    },
    {
      path: '/campaign/:id/report',
      component: lazy(() => import('./report/campaign-report-page')),
      gate: campaignsGate,
      deniedKey: 'session.noPermission',
    },
    {
      path: '/campaigns-config',
      component: lazy(() => import('./settings/campaign-settings-page')),
      gate: campaignsGate,
      deniedKey: 'session.noPermission',
      menu: { href: '/campaigns-config', labelKey: 'menu.settings', icon: <SettingOutlined />, section: 'main' },
    },
  ],
});
