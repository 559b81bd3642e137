import type { PluginApp } from 'atende/plugin';
import type { BillingConfig } from './billing-config.js';
import { CheckoutService } from './checkout/checkout.service.js';
import { InvoicesService } from './invoices/invoices.service.js';
import { PromotionsService } from './promotions/promotions.service.js';
import { SignupService } from './signup/signup.service.js';
import { SubscriptionsService } from './subscriptions/subscriptions.service.js';
import { WebhookService } from './subscriptions/webhook.service.js';

export interface BillingParts {
  invoices: InvoicesService;
  signup: SignupService;
  subscriptions: SubscriptionsService;
  webhook: WebhookService;
  promotions: PromotionsService;
  checkout: CheckoutService;
}

/** Keyed by the plugin's app: one server builds them once; a test process may run several servers. */
const built = new WeakMap<PluginApp<BillingConfig>, BillingParts>();

export function billingOf(app: PluginApp<BillingConfig>): BillingParts {
  let parts = built.get(app);
  if (!parts) {
    const invoices = new InvoicesService(app);
    const subscriptions = new SubscriptionsService(app);
    const promotions = new PromotionsService(app);
    parts = {
      invoices,
      promotions,
      signup: new SignupService(app, invoices, promotions, subscriptions),
      subscriptions,
      webhook: new WebhookService(app, invoices, subscriptions),
      checkout: new CheckoutService(app, invoices),
    };
    built.set(app, parts);
  }
  return parts;
}
