import { ErrorCode, routeId, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { billingOf } from '../billing-of.js';
import { changePlanBody, removeInput, createCustomerBody, createSubscriptionBody, parseCard, paymentsBody } from './subscriptions.schema.js';

/** The spec's {payment-provider} segment of the billing calls (§7 Billing): the provider this build speaks. */
export const PROVIDER_SEGMENT = 'asaas';
const P = `/${PROVIDER_SEGMENT}`;
const NO_COMPANY = ErrorCode.ERR_NO_COMPANY_FOUND;

/** /api/asaas/…: behind login; the service checks the company (own for admins, any for super users). */
export function subscriptionsRoutes(router: AppRouter, app: PluginApp<BillingConfig>): void {
  const subscriptions = billingOf(app).subscriptions;

  router.get(`${P}/companhia/:companyId`, async (ctx) => {
    ctx.body = await subscriptions.customer(ctx.state.user, routeId(ctx.params.companyId, NO_COMPANY));
  });

  router.post(`${P}/companhia/create/customer`, async (ctx) => {
    const { companyId, cpfCnpj } = validate(createCustomerBody, ctx.request.body);
    ctx.body = await subscriptions.createCustomer(ctx.state.user, companyId, cpfCnpj);
  });

  router.post(`${P}/companhia/create/subscriptions`, async (ctx) => {
    const { companyId, creditCard } = validate(createSubscriptionBody, ctx.request.body);
    const created = await subscriptions.createSubscription(ctx.state.user, companyId, parseCard(creditCard), ctx.ip);
    ctx.status = 201;
    ctx.body = { ...created, company: await app.services.companies.get(companyId) };
  });

  router.get(`${P}/companhia/load/all/company/${PROVIDER_SEGMENT}/by/:companyId`, async (ctx) => {
    ctx.body = await subscriptions.list(ctx.state.user, routeId(ctx.params.companyId, NO_COMPANY));
  });

  router.post(`${P}/companhia/load/payments/to/subscriptions`, async (ctx) => {
    const { id, offset } = validate(paymentsBody, ctx.request.body);
    ctx.body = await subscriptions.payments(ctx.state.user, id, offset);
  });

  router.post(`${P}/change-plan/subscriptions/new-subscriptions/${PROVIDER_SEGMENT}`, async (ctx) => {
    const { companyId, planId } = validate(changePlanBody, ctx.request.body);
    ctx.body = await subscriptions.changePlan(ctx.state.user, companyId, planId);
  });

  router.delete(`${P}/remove/subscriptions/by-id/:id`, async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const { companyId } = validate(removeInput, { ...ctx.query, ...(typeof body === 'object' ? body : {}) });
    await subscriptions.remove(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_SUBSCRIPTION_FOUND), companyId);
    ctx.status = 204;
  });
}

/** POST /api/asaas/webhook (public): the provider's calls, authenticated by their token header. */
export function webhookRoutes(router: AppRouter, app: PluginApp<BillingConfig>): void {
  const webhook = billingOf(app).webhook;
  router.post(`${P}/webhook`, async (ctx) => {
    ctx.body = await webhook.receive(ctx.headers, ctx.request.body);
  });
}
