import { lazy } from 'react';
import { CrownOutlined, DollarOutlined, GiftOutlined } from '@ant-design/icons';
import { allOf, definePluginWeb, isAdmin, isSuper, pluginActive, type Gate } from 'atende/web';

/** Billing's pages exist only while the installation has a provider (the server's `active`). */
const billingOn = pluginActive('billing');
/** Admins, and the users the finance guard sends here (the financial flag). */
const mayPay: Gate = allOf(billingOn, (ctx) => isAdmin(ctx) || ctx.user.financial);

export default definePluginWeb({
  name: 'billing',
  translations: async (language) => (await import('./billing.i18n')).billingTranslations[language],
  pages: [
    {
      path: '/financeiro',
      component: lazy(() => import('./invoices-page')),
      gate: mayPay,
      deniedKey: 'session.accessDenied',
      menu: { href: '/financeiro', labelKey: 'menu', icon: <DollarOutlined />, section: 'admin', before: '/settings' },
    },
    {
      path: '/subscription',
      component: lazy(() => import('./subscription-page')),
      gate: mayPay,
      deniedKey: 'session.accessDenied',
      menu: { href: '/subscription', labelKey: 'menuSubscription', icon: <CrownOutlined />, section: 'admin', before: '/financeiro' },
    },
    {
      path: '/promotions',
      component: lazy(() => import('./promotions-page')),
      gate: allOf(billingOn, isSuper),
      deniedKey: 'session.noPermission',
      menu: { href: '/promotions', labelKey: 'menuPromotions', icon: <GiftOutlined />, section: 'admin', before: '/settings' },
    },
  ],
});
