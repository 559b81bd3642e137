import type { Knex } from 'knex';
import {
  ConflictError,
  ErrorCode,
  ForbiddenError,
  isAdmin,
  isPostgres,
  likePattern,
  NotFoundError,
  todayIn,
  ValidationError,
  type AuthUser,
  type PluginApp,
} from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { pixQrCodeFor } from '../provider/provider-of.js';
import { invoiceMail } from './invoice-mail.js';
import { toInvoiceView, type InvoicePixView, type InvoiceView } from './invoice-view.js';
import { Invoice } from './invoice.model.js';
import { INVOICES_PAGE_SIZE, type ListInvoicesQuery } from './invoices.schema.js';

/** Whole days from `from` to `to` (both YYYY-MM-DD), negative when `to` is earlier. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A new company's first invoice: the plan's value less a promotion's `discountPercent`, in cents. */
export function firstInvoiceValue(planValue: number | string, discountPercent: number): number {
  return Math.round(Number(planValue) * (100 - discountPercent)) / 100;
}

function notFound(): NotFoundError {
  return new NotFoundError(ErrorCode.ERR_NO_INVOICE_FOUND);
}

/**
 * A company's invoices (spec: Billing, Invoices): one a period, opened for the company's due date
 * at the plan's value; paying one moves the due date by the company's recurrence. Super users see
 * and settle every company's; a company's admins and financial users read their own.
 */
export class InvoicesService {
  constructor(
    private readonly app: PluginApp<BillingConfig>,
  ) {}

  private get config(): BillingConfig {
    return this.app.config;
  }

  /** The invoices `actor` may read. */
  private visible(actor: AuthUser, db: Knex = this.app.db): Knex.QueryBuilder {
    const query = db('invoices');
    if (actor.super) return query;
    if (!isAdmin(actor) && !actor.financial) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION);
    return query.where('invoices.companyId', actor.companyId);
  }

  /** Rows with their company's name (read through the companies service, never its table). */
  private async named(rows: Invoice[]): Promise<InvoiceView[]> {
    if (rows.length === 0) return [];
    const names = new Map((await this.app.services.companies.list()).map((c) => [c.id, c.name]));
    return rows.map((row) => toInvoiceView({ ...row, companyName: names.get(row.companyId) ?? '' }));
  }

  private async find(actor: AuthUser, id: number): Promise<InvoiceView> {
    const row: Invoice | undefined = await this.visible(actor).where('invoices.id', id).first();
    if (!row) throw notFound();
    return (await this.named([row]))[0]!;
  }

  /** GET /invoices/all: latest due date first, 20 a page; the search looks at the detail and, for super users, the company's name. */
  async list(actor: AuthUser, query: ListInvoicesQuery): Promise<{ invoices: InvoiceView[]; count: number; hasMore: boolean }> {
    const term = query.searchParam.toLowerCase();
    const companyIds = actor.super && term ? (await this.app.services.companies.list()).filter((c) => c.name.toLowerCase().includes(term)).map((c) => c.id) : [];
    const filtered = () => {
      const q = this.visible(actor);
      if (term) {
        q.where((w) => {
          w.whereRaw("lower(??) like ? escape '!'", ['invoices.detail', likePattern(term)]);
          if (companyIds.length > 0) w.orWhereIn('invoices.companyId', companyIds);
        });
      }
      return q;
    };
    const offset = (query.pageNumber - 1) * INVOICES_PAGE_SIZE;
    const [rows, [{ count }]] = await Promise.all([
      filtered().select('*').orderBy('invoices.dueDate', 'desc').orderBy('invoices.id', 'desc').limit(INVOICES_PAGE_SIZE).offset(offset),
      filtered().count({ count: '*' }) as unknown as Promise<[{ count: number | string }]>,
    ]);
    const invoices = await this.named(rows);
    return { invoices, count: Number(count), hasMore: offset + invoices.length < Number(count) };
  }

  /** GET /invoices/:id/pix: the invoice's Pix code through the configured provider, for its own amount. */
  async pix(actor: AuthUser, id: number): Promise<InvoicePixView> {
    await this.find(actor, id);
    const code = await pixQrCodeFor(this.app, id);
    return { invoiceId: code.invoiceId, value: code.value, dueDate: code.dueDate, payload: code.payload, encodedImage: code.encodedImage };
  }

  /**
   * POST /invoices/:id/pay (super users): the invoice paid at its own value (money that reached the
   * platform outside the provider, a Pix in manual mode), as a provider's payment pays it.
   */
  async markPaid(actor: AuthUser, id: number): Promise<InvoiceView> {
    if (!actor.super) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION);
    if (!this.config.provider) throw new ValidationError('Billing is off in this installation', undefined, ErrorCode.ERR_BILLING_OFF);
    const companyId = await this.app.db.transaction((trx) => this.settleIn(trx, id, { paidBy: 'manual' }));
    await this.announcePaid(companyId);
    return this.find(actor, id);
  }

  /**
   * The one way an invoice gets paid (a super user's mark, a provider's webhook): the invoice paid,
   * and the company's due date moved one period, inside `trx` with the invoice's row held. Answers
   * the company's id; once `trx` commits, call `announcePaid`. 409 when it is already paid.
   */
  async settleIn(trx: Knex.Transaction, id: number, payment: { paidBy: string; paidValue?: number; providerPaymentId?: string }): Promise<number> {
    const query = Invoice.query(trx).findById(id);
    const invoice = await (isPostgres(trx) ? query.forUpdate() : query);
    if (!invoice) throw notFound();
    if (invoice.status === 'paid') throw new ConflictError(ErrorCode.ERR_INVOICE_ALREADY_PAID, 'This invoice is already paid');
    await invoice.$query(trx).patch({
      status: 'paid',
      paidAt: new Date().toISOString(),
      paidValue: payment.paidValue ?? invoice.value,
      paidBy: payment.paidBy,
      ...(payment.providerPaymentId ? { providerPaymentId: payment.providerPaymentId } : {}),
    });
    const timeZone = await this.app.services.settings.get(invoice.companyId, 'timezone', trx);
    await this.app.services.companies.renew(invoice.companyId, todayIn(timeZone), trx);
    return invoice.companyId;
  }

  /** After a payment committed: the company hears company-{id}-payment (CONCLUIDA) and its next invoice opens. */
  async announcePaid(companyId: number): Promise<void> {
    const company = await this.app.services.companies.get(companyId);
    this.app.realtime.publish(companyId, `company-${companyId}-payment`, { action: 'CONCLUIDA', company: { id: company.id, dueDate: company.dueDate } });
    await this.openFor(company.id);
  }

  /**
   * The open invoice of each billed company's current due date, made when missing (the daily job,
   * and after a payment). Billed: active, with a due date and a plan that costs something. The
   * unique (company, due date) makes a second run or a second node open nothing more.
   */
  async openDue(): Promise<number> {
    if (!this.config.provider) return 0;
    const [companies, plans] = await Promise.all([this.app.services.companies.list(), this.app.services.plans.list()]);
    const priceOf = new Map(plans.map((p) => [p.id, p]));
    let opened = 0;
    for (const company of companies) {
      const plan = company.planId === null ? undefined : priceOf.get(company.planId);
      if (!company.status || !company.dueDate || !plan || Number(plan.value) <= 0) continue;
      opened += await this.open(company.id, company.dueDate, plan.name, Number(plan.value));
    }
    return opened;
  }

  /**
   * Blocks each company more than `blockAfterDays` past its due date (its sessions stop; its users
   * already meet the expired-subscription rule) and lifts the block of one that is no longer (its
   * due date moved by hand; a payment lifts it at once). Answers how many changed.
   */
  async enforceDueDates(): Promise<number> {
    if (!this.config.provider) return 0;
    let changed = 0;
    for (const company of await this.app.services.companies.list()) {
      const timeZone = await this.app.services.settings.get(company.id, 'timezone');
      const late = company.dueDate !== null && daysBetween(company.dueDate, todayIn(timeZone)) > this.config.blockAfterDays;
      if (late && !company.blockedAt && (await this.app.services.companies.block(company.id))) changed += 1;
      if (!late && company.blockedAt && (await this.app.services.companies.unblock(company.id))) changed += 1;
    }
    return changed;
  }

  /**
   * E-mails each company of its open invoices: once when one opens, once more `remindDaysBefore`
   * days before it is due. Marked after the send, so a failed send is tried on the next run (and a
   * crash between the two sends one mail twice, never none). Nothing without an SMTP server.
   */
  async notify(): Promise<number> {
    const { mail } = this.app.services;
    if (!this.config.provider || !mail.configured) return 0;
    const open = await Invoice.query(this.app.db).where('status', 'open').where((w) => w.whereNull('notifiedAt').orWhereNull('remindedAt'));
    let sent = 0;
    for (const invoice of open) {
      const company = await this.app.services.companies.get(invoice.companyId);
      const today = todayIn(await this.app.services.settings.get(company.id, 'timezone'));
      const kind = invoice.notifiedAt === null ? 'opened' : daysBetween(today, invoice.dueDate) <= this.config.remindDaysBefore ? 'reminder' : null;
      if (kind === null || !company.email) continue;
      try {
        await mail.send(
          invoiceMail(kind, { to: company.email, companyName: company.name, detail: invoice.detail, value: Number(invoice.value), dueDate: invoice.dueDate, link: mail.link('/financeiro') }),
        );
      } catch (err) {
        this.app.log.warn({ err, invoiceId: invoice.id }, 'invoice e-mail not sent; tried again on the next run');
        continue;
      }
      const now = new Date().toISOString();
      // Told of an invoice already due within the reminder days: that first mail is the reminder too.
      const remindedToo = kind === 'reminder' || daysBetween(today, invoice.dueDate) <= this.config.remindDaysBefore;
      await invoice.$query(this.app.db).patch(kind === 'opened' ? { notifiedAt: now, ...(remindedToo ? { remindedAt: now } : {}) } : { remindedAt: now });
      sent += 1;
    }
    return sent;
  }

  /** The invoice of the company's current due date, when it is billed (after signup, after a payment). */
  async openFor(companyId: number): Promise<void> {
    const company = await this.app.services.companies.get(companyId);
    if (!company.status || !company.dueDate || company.planId === null) return;
    const plan = await this.app.services.plans.view(company.planId);
    if (Number(plan.value) > 0) await this.open(company.id, company.dueDate, plan.name, Number(plan.value));
  }

  /**
   * A new company's first invoice, inside its signup transaction: the plan's value less
   * `discountPercent` (a promotion code's discount applies to this invoice only).
   */
  async openFirst(companyId: number, dueDate: string, plan: { name: string; value: number | string }, discountPercent: number, trx: Knex.Transaction): Promise<void> {
    if (Number(plan.value) <= 0) return;
    await this.open(companyId, dueDate, discountPercent > 0 ? `${plan.name} (-${discountPercent}%)` : plan.name, firstInvoiceValue(plan.value, discountPercent), trx);
  }

  private async open(companyId: number, dueDate: string, detail: string, value: number, db: Knex = this.app.db): Promise<number> {
    const now = new Date().toISOString();
    const inserted = await db('invoices')
      .insert({ companyId, detail, value, dueDate, status: 'open', createdAt: now, updatedAt: now })
      .onConflict(['companyId', 'dueDate'])
      .ignore()
      .returning('id');
    return inserted.length;
  }
}
