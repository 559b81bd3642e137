import type { Knex } from 'knex';
import type { PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import type { InvoicesService } from '../invoices/invoices.service.js';
import { Invoice } from '../invoices/invoice.model.js';
import type { ProviderEvent } from '../provider/payment-provider.js';
import { providerOf } from '../provider/provider-of.js';
import type { SubscriptionsService } from './subscriptions.service.js';

/** What an event did, kept with it (billing_provider_events.outcome). */
export type WebhookOutcome = 'paid' | 'duplicate' | 'amount-mismatch' | 'already-paid' | 'no-invoice' | 'overdue' | 'subscription-ended' | 'ignored';

function cents(value: number | string): number {
  return Math.round(Number(value) * 100);
}

/**
 * The provider's webhook (POST /api/{provider}/webhook): authenticated by the driver, handled once
 * per event id (the id is written in the same transaction as what the event does, so a
 * redelivery, or two at once, change nothing more), and a payment pays an invoice only for the
 * invoice's exact value. Paying renews the company as a super user's mark does (one function).
 */
export class WebhookService {
  constructor(
    private readonly app: PluginApp<BillingConfig>,
    private readonly invoices: InvoicesService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  async receive(headers: Record<string, string | string[] | undefined>, body: unknown): Promise<{ received: true; outcome: WebhookOutcome }> {
    const provider = providerOf(this.app);
    const event = provider.parseWebhook(headers, body);
    const { outcome, paidCompany } = await this.app.db.transaction(async (trx) => {
      const now = new Date().toISOString();
      const inserted = await trx('billing_provider_events')
        .insert({ provider: provider.name, eventId: event.id, event: event.type, paymentId: event.payment?.id ?? null, outcome: 'ignored', createdAt: now })
        .onConflict(['provider', 'eventId'])
        .ignore()
        .returning('id');
      if (inserted.length === 0) return { outcome: 'duplicate' as const, paidCompany: null };
      const eventRow = (inserted[0] as { id: number }).id;
      const done = await this.apply(trx, event);
      await trx('billing_provider_events').where({ id: eventRow }).update({ outcome: done.outcome, invoiceId: done.invoiceId });
      return { outcome: done.outcome, paidCompany: done.paidCompany };
    });
    if (outcome === 'amount-mismatch' || outcome === 'no-invoice') {
      this.app.log.warn({ eventId: event.id, event: event.type, paymentId: event.payment?.id, outcome }, 'a payment paid no invoice');
    }
    if (paidCompany !== null) await this.invoices.announcePaid(paidCompany);
    return { received: true, outcome };
  }

  private async apply(trx: Knex.Transaction, event: ProviderEvent): Promise<{ outcome: WebhookOutcome; invoiceId: number | null; paidCompany: number | null }> {
    const none = { invoiceId: null, paidCompany: null };
    if (event.kind === 'subscription-ended' && event.subscriptionId) {
      await this.subscriptions.ended(event.subscriptionId, trx);
      return { outcome: 'subscription-ended', ...none };
    }
    if (!event.payment || (event.kind !== 'paid' && event.kind !== 'overdue')) return { outcome: 'ignored', ...none };
    const invoice = await this.invoiceFor(trx, event.payment);
    if (!invoice) return { outcome: 'no-invoice', ...none };
    // An overdue charge changes nothing here: the hourly job blocks by the company's due date.
    if (event.kind === 'overdue') return { outcome: 'overdue', invoiceId: invoice.id, paidCompany: null };
    if (invoice.status === 'paid') return { outcome: 'already-paid', invoiceId: invoice.id, paidCompany: null };
    if (cents(invoice.value) !== cents(event.payment.value)) return { outcome: 'amount-mismatch', invoiceId: invoice.id, paidCompany: null };
    const companyId = await this.invoices.settleIn(trx, invoice.id, { paidBy: providerOf(this.app).name, paidValue: event.payment.value, providerPaymentId: event.payment.id });
    return { outcome: 'paid', invoiceId: invoice.id, paidCompany: companyId };
  }

  /**
   * The invoice a payment is for: the one its Pix charge was made for (its reference), the one it
   * already paid, or else, for a subscription's charge, the company's oldest open invoice not
   * charged otherwise.
   */
  private async invoiceFor(trx: Knex.Transaction, payment: NonNullable<ProviderEvent['payment']>): Promise<Invoice | undefined> {
    const ref = /^invoice:(\d+)$/.exec(payment.externalReference ?? '');
    if (ref) return Invoice.query(trx).findById(Number(ref[1]));
    const linked = await Invoice.query(trx).where('providerPaymentId', payment.id).first();
    if (linked) return linked;
    if (!payment.subscription) return undefined;
    const subscription = await trx('billing_subscriptions').where({ provider: providerOf(this.app).name, subscriptionId: payment.subscription }).first('companyId');
    if (!subscription) return undefined;
    return Invoice.query(trx)
      .where({ companyId: subscription.companyId as number, status: 'open' })
      .whereNull('providerPaymentId')
      .orderBy('dueDate', 'asc')
      .orderBy('id', 'asc')
      .first();
  }
}
