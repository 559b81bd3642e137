import { ErrorCode, routeId, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { billingOf } from '../billing-of.js';
import { listInvoicesQuery } from './invoices.schema.js';

const NOT_FOUND = ErrorCode.ERR_NO_INVOICE_FOUND;

/** /api/invoices: behind login; who reads and who settles is the service's rule. */
export function invoicesRoutes(router: AppRouter, app: PluginApp<BillingConfig>): void {
  const invoices = billingOf(app).invoices;

  router.get('/billing/status', (ctx) => {
    // Pix is offered by Asaas for each invoice, or in manual mode once the platform's key is set.
    const pix = app.config.provider === 'asaas' || (app.config.provider === 'manual' && app.config.pixKey !== '');
    ctx.body = { provider: app.config.provider ?? null, pix };
  });

  router.get('/invoices/all', async (ctx) => {
    ctx.body = await invoices.list(ctx.state.user, validate(listInvoicesQuery, ctx.query));
  });

  router.get('/invoices/:id/pix', async (ctx) => {
    ctx.body = await invoices.pix(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/invoices/:id/pay', async (ctx) => {
    ctx.body = await invoices.markPaid(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });
}
