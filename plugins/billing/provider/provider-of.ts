import { ConflictError, ErrorCode, NotFoundError, ValidationError, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { Invoice } from '../invoices/invoice.model.js';
import { AsaasProvider } from './asaas.driver.js';
import { ensureCustomer } from './customers.js';
import { ManualProvider } from './manual.driver.js';
import type { PaymentProvider, PixCode } from './payment-provider.js';

const drivers = new WeakMap<PluginApp<BillingConfig>, PaymentProvider>();

/** The configured provider's driver (manual when billing is on without one), built once per server. */
export function providerOf(app: PluginApp<BillingConfig>): PaymentProvider {
  let driver = drivers.get(app);
  if (!driver) {
    driver = app.config.provider === 'asaas' ? new AsaasProvider(app) : new ManualProvider(app.config);
    drivers.set(app, driver);
  }
  return driver;
}

/** An invoice's Pix code and the amount it charges (the invoice's own). */
export interface InvoicePixCode extends PixCode {
  invoiceId: number;
  value: number;
  dueDate: string;
}

function cents(value: number | string | null): number | null {
  return value === null ? null : Math.round(Number(value) * 100);
}

/**
 * The open invoice's Pix charge at the provider cancelled when it is for another amount than the
 * invoice's (the invoice was repriced: a plan change, a promotion), and unlinked, so the next Pix
 * code is a new charge for the invoice's value. The old charge's payment, should it still come,
 * pays nothing (the webhook pays an invoice only for its exact value). A charge linked before its
 * amount was kept (no value) counts as stale: replacing it is safe. Answers whether it dropped one.
 */
export async function dropStaleCharge(app: PluginApp<BillingConfig>, invoice: Invoice): Promise<boolean> {
  const chargeId = invoice.providerPaymentId;
  if (!chargeId || invoice.status !== 'open' || cents(invoice.providerPaymentValue) === cents(invoice.value)) return false;
  await providerOf(app).cancelPayment(chargeId);
  await app.db('invoices').where({ id: invoice.id, providerPaymentId: chargeId, status: 'open' }).update({ providerPaymentId: null, providerPaymentValue: null, updatedAt: new Date().toISOString() });
  return true;
}

/**
 * The Pix code that pays invoice `invoiceId`, through the configured provider: manual, a static BR
 * Code to the platform's key; asaas, the invoice's Pix charge at Asaas (made once for the invoice's
 * value, then linked to the invoice with that value so its webhook finds it, and made again when
 * the invoice's value changed). The amount is always the invoice's value, read here. The caller
 * checks that its user may see the invoice. 404 unknown, 409 already paid, 400 billing off.
 */
export async function pixQrCodeFor(app: PluginApp<BillingConfig>, invoiceId: number): Promise<InvoicePixCode> {
  if (!app.config.provider) throw new ValidationError('Billing is off in this installation', undefined, ErrorCode.ERR_BILLING_OFF);
  const invoice = await Invoice.query(app.db).findById(invoiceId);
  if (!invoice) throw new NotFoundError(ErrorCode.ERR_NO_INVOICE_FOUND);
  if (invoice.status === 'paid') throw new ConflictError(ErrorCode.ERR_INVOICE_ALREADY_PAID, 'This invoice is already paid');
  if (await dropStaleCharge(app, invoice)) invoice.providerPaymentId = null;
  const provider = providerOf(app);
  const customerId = provider.cards && !invoice.providerPaymentId ? await ensureCustomer(app, provider, invoice.companyId) : null;
  const value = Number(invoice.value);
  const code = await provider.pixQrCodeFor({ id: invoice.id, companyId: invoice.companyId, value, dueDate: invoice.dueDate, providerPaymentId: invoice.providerPaymentId, customerId });
  if (code.providerPaymentId && code.providerPaymentId !== invoice.providerPaymentId) {
    await app
      .db('invoices')
      .where({ id: invoice.id })
      .whereNull('providerPaymentId')
      .update({ providerPaymentId: code.providerPaymentId, providerPaymentValue: value, updatedAt: new Date().toISOString() });
  }
  return { ...code, invoiceId: invoice.id, value, dueDate: invoice.dueDate };
}
