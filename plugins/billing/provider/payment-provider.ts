/**
 * What billing asks of a payment provider (spec: Billing, Checkout and payment). One driver per
 * provider: `manual` (a static Pix BR Code to the platform's key; a super user marks invoices paid)
 * and `asaas` (cards and Pix through Asaas's REST API v3). The rules (who may act, which invoice a
 * payment pays, whether its amount is right) are billing's, never a driver's.
 */

export type ProviderName = 'manual' | 'asaas';

/** The company as the provider's customer. */
export interface CustomerInput {
  /** Null at signup, where the company is made once the provider took the card. */
  companyId: number | null;
  name: string;
  email: string;
  phone: string;
  /** CPF or CNPJ, digits only. */
  cpfCnpj: string;
}

/** A card as the company typed it (spec §3 Card): passed to the provider, never stored. */
export interface CardInput {
  number: string;
  holderName: string;
  expiryMonth: string;
  expiryYear: string;
  ccv: string;
  postalCode: string;
  addressNumber: string;
}

export interface CardSubscriptionInput {
  customerId: string;
  /** Null at signup, as for the customer. */
  companyId: number | null;
  /** Reais a month: the plan's value, read on the server. */
  value: number;
  /** YYYY-MM-DD: the first charge (the company's due date, or today when it is past). */
  nextDueDate: string;
  description: string;
  card: CardInput;
  /** The card holder: the company, its document and the card's address. */
  holder: { name: string; email: string; cpfCnpj: string; phone: string };
  /** The payer's address, which card providers ask for their fraud checks. */
  remoteIp: string;
}

export interface ProviderSubscription {
  id: string;
  customerId: string;
  status: 'active' | 'inactive';
  value: number;
  nextDueDate: string | null;
  cardLast4: string | null;
  cardBrand: string | null;
}

/** A charge of a subscription (spec §3 Payment), as the provider tells it. */
export interface ProviderPayment {
  id: string;
  subscription: string | null;
  customer: string;
  value: number;
  dueDate: string;
  originalDueDate: string | null;
  /** The provider's status code (PENDING, CONFIRMED, RECEIVED, OVERDUE, …): the page names it. */
  status: string;
  billingType: string;
  invoiceUrl: string | null;
}

/** The invoice a Pix code is asked for: its amount is the server's, never a browser's. */
export interface PixInvoice {
  id: number;
  companyId: number;
  value: number;
  /** YYYY-MM-DD. */
  dueDate: string;
  /** The provider's charge already made for this invoice, if any. */
  providerPaymentId: string | null;
  /** The company's customer at the provider (drivers that charge through one need it). */
  customerId: string | null;
}

/** A Pix code to pay: the copy-and-paste payload, and the provider's QR image when it gives one. */
export interface PixCode {
  payload: string;
  /** A PNG in base64, or null: the page draws the QR from the payload. */
  encodedImage: string | null;
  expiresAt: string | null;
  /** The provider's charge this code pays, to link to the invoice (null in manual mode). */
  providerPaymentId: string | null;
}

/** What a webhook call says, in billing's words. */
export interface ProviderEvent {
  /** The provider's id of the event: one delivery or its redeliveries. */
  id: string;
  /** The provider's name of the event (PAYMENT_RECEIVED, …), kept with it. */
  type: string;
  kind: 'paid' | 'overdue' | 'subscription-ended' | 'other';
  payment: {
    id: string;
    value: number;
    subscription: string | null;
    customer: string | null;
    externalReference: string | null;
  } | null;
  subscriptionId: string | null;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Whether it takes cards (customers and subscriptions); the manual driver does not. */
  readonly cards: boolean;
  createCustomer(input: CustomerInput): Promise<{ id: string }>;
  /** A customer made for a signup that did not go through, removed again. */
  removeCustomer(customerId: string): Promise<void>;
  createCardSubscription(input: CardSubscriptionInput): Promise<ProviderSubscription>;
  /** A pending charge's amount changed (a signup's first month at a promotion's discount). */
  setPaymentValue(paymentId: string, value: number): Promise<void>;
  /** Newest first, `limit` from `offset`. */
  listSubscriptionPayments(subscriptionId: string, offset: number, limit: number): Promise<{ data: ProviderPayment[]; hasMore: boolean }>;
  /** The subscription's value from now on, its pending charges included. */
  changePlan(subscriptionId: string, change: { value: number; description: string }): Promise<void>;
  cancelSubscription(subscriptionId: string): Promise<void>;
  pixQrCodeFor(invoice: PixInvoice): Promise<PixCode>;
  /** A charge no longer to be paid (an invoice's Pix charge for an amount the invoice no longer has) removed at the provider. */
  cancelPayment(paymentId: string): Promise<void>;
  /**
   * A webhook call read and authenticated: throws 401 when its token is missing or wrong (nothing
   * is read then), 400 when it is not an event.
   */
  parseWebhook(headers: Record<string, string | string[] | undefined>, body: unknown): ProviderEvent;
}
