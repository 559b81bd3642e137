import { definePlugin } from 'atende/plugin';
import { billingConfig } from './billing-config.js';
import { billingOf } from './billing-of.js';
import { checkoutRoutes } from './checkout/checkout.routes.js';
import { invoicesRoutes } from './invoices/invoices.routes.js';
import { promotionsRoutes } from './promotions/promotions.routes.js';
import { signupRoutes } from './signup/signup.routes.js';

export const DUE_DATES_JOB = 'billing.due-dates';
/** Opens the invoices due and blocks or unblocks by due date. Hourly rather than daily: a missed run (a stopped server) costs an hour. */
const OPEN_EVERY_MS = 60 * 60 * 1000;

/**
 * Billing (spec: Billing, Invoices; issue: the SaaS side). No plan flag: the platform owner turns it
 * on with `provider` in its config. Manual mode: invoices paid by Pix to the platform's key and
 * marked paid by a super user.
 */
export default definePlugin({
  name: 'billing',
  config: billingConfig,
  migrations: 'migrations',
  web: 'web',
  routes(router, app) {
    invoicesRoutes(router, app);
    promotionsRoutes(router, app);
    checkoutRoutes(router, app);
  },
  publicRoutes: signupRoutes,
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
