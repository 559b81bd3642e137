/** What the {payment-provider} routes answer (spec §3 Subscription row, Payment); read by the web too. */

import type { ProviderPayment } from '../provider/payment-provider.js';

/** A company's card subscription at the provider. */
export interface SubscriptionView {
  id: number;
  companyId: number;
  provider: string;
  /** The provider's subscription id. */
  subscriptionId: string;
  /** The provider's customer id. */
  customerId: string;
  planId: number | null;
  planName: string | null;
  status: 'active' | 'inactive';
  value: number;
  cardLast4: string | null;
  cardBrand: string | null;
  createdAt: string;
}

/** A charge of a subscription, as the provider tells it: the routes pass it on as it is. */
export type PaymentView = ProviderPayment;

/** GET /{payment-provider}/companhia/:companyId */
export interface CustomerView {
  customerId: string | null;
  /** Whether the company has a CPF/CNPJ to create the customer with (else 'Criar Cliente' asks for one). */
  hasDocument: boolean;
}
