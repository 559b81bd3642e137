import { definePlugin } from 'atende/plugin';
import { billingConfig, billingConfigEnv } from './billing-config.js';
import { billingOf } from './billing-of.js';
import { checkoutRoutes } from './checkout/checkout.routes.js';
import { invoicesRoutes } from './invoices/invoices.routes.js';
import { promotionsRoutes } from './promotions/promotions.routes.js';
import { signupRoutes } from './signup/signup.routes.js';
import { subscriptionsRoutes, webhookRoutes } from './subscriptions/subscriptions.routes.js';

export const DUE_DATES_JOB = 'billing.due-dates';
/** Opens the invoices due and blocks or unblocks by due date. Hourly rather than daily: a missed run (a stopped server) costs an hour. */
const OPEN_EVERY_MS = 60 * 60 * 1000;

/**
 * Billing (spec: Billing, Invoices; issue: the SaaS side). No plan flag: the platform owner turns it
 * on with `provider` in its config. Manual mode: invoices paid by Pix to the platform's key and
 * marked paid by a super user. Asaas: card subscriptions and Pix charges, invoices paid by its
 * webhook (provider/, subscriptions/).
 */
export default definePlugin({
  name: 'billing',
  config: billingConfig,
  configEnv: billingConfigEnv,
  active: (config) => config.provider !== undefined,
  migrations: 'migrations',
  web: 'web',
  routes(router, app) {
    invoicesRoutes(router, app);
    subscriptionsRoutes(router, app);
    promotionsRoutes(router, app);
    checkoutRoutes(router, app);
  },
  publicRoutes(router, app) {
    signupRoutes(router, app);
    webhookRoutes(router, app);
  },
  jobs(jobs, app) {
    jobs.define(DUE_DATES_JOB, async () => {
      const { invoices } = billingOf(app);
      await invoices.openDue();
      await invoices.enforceDueDates();
      await invoices.notify();
    });
  },
  async bootstrap(app) {
    if (!app.config.provider) return;
    await app.jobs.every(OPEN_EVERY_MS, DUE_DATES_JOB);
    await app.jobs.now(DUE_DATES_JOB, {});
  },
});
