import { ErrorCode, ForbiddenError, isAdmin, ValidationError, type AuthUser, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { Invoice } from '../invoices/invoice.model.js';
import type { InvoicesService } from '../invoices/invoices.service.js';
import { pixQrCodeFor } from '../provider/provider-of.js';
import type { CheckoutAnswer, CheckoutView } from './checkout.contract.js';
import type { CheckoutInput } from './checkout.schema.js';

/**
 * The subscription page's checkout: for the caller's own company only (the session's, never an id
 * from the body), at the price of its plan. Choosing another plan is the company's plan change.
 */
export class CheckoutService {
  constructor(
    private readonly app: PluginApp<BillingConfig>,
    private readonly invoices: InvoicesService,
  ) {}

  private assertMayPay(actor: AuthUser): void {
    if (!this.app.config.provider) throw new ValidationError('Billing is off in this installation', undefined, ErrorCode.ERR_BILLING_OFF);
    if (!isAdmin(actor) && !actor.financial) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION);
  }

  async view(actor: AuthUser): Promise<CheckoutView> {
    this.assertMayPay(actor);
    const company = await this.app.services.companies.get(actor.companyId);
    const plan = company.planId === null ? null : await this.app.services.plans.view(company.planId);
    const paid = await Invoice.query(this.app.db).where({ companyId: company.id, status: 'paid' }).first();
    const left = company.dueDate ? Math.ceil((Date.parse(`${company.dueDate}T00:00:00Z`) - Date.now()) / 86_400_000) : 0;
    return {
      companyName: company.name,
      email: company.email ?? '',
      dueDate: company.dueDate,
      trial: paid === undefined,
      trialDaysLeft: Math.max(0, left),
      plan: plan ? { id: plan.id, name: plan.name, value: Number(plan.value) } : null,
    };
  }

  /**
   * POST /subscription: the plan changed when another was chosen (admins only), then the company's
   * oldest open invoice (opened now when missing) and its Pix, for the invoice's own value.
   */
  async checkout(actor: AuthUser, input: CheckoutInput): Promise<CheckoutAnswer> {
    this.assertMayPay(actor);
    const companyId = actor.companyId;
    let company = await this.app.services.companies.get(companyId);
    const changed = input.plan !== undefined && input.plan !== company.planId;
    if (changed) {
      if (!isAdmin(actor)) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION);
      await this.app.services.plans.view(input.plan!); // unknown: 404
      company = await this.app.services.companies.update(companyId, { planId: input.plan! });
    }
    if (company.planId === null || !company.dueDate) throw new ValidationError('This company has nothing to pay', undefined, ErrorCode.ERR_VALIDATION);
    const plan = await this.app.services.plans.view(company.planId);
    if (Number(plan.value) <= 0) throw new ValidationError('This plan is free', undefined, ErrorCode.ERR_VALIDATION);
    await this.invoices.openFor(companyId);
    const invoice = await Invoice.query(this.app.db).where({ companyId, status: 'open' }).orderBy('dueDate').orderBy('id').first();
    if (!invoice) throw new ValidationError('This company has nothing to pay', undefined, ErrorCode.ERR_VALIDATION);
    // The open invoice of the current period follows a plan change (and one whose repricing failed before).
    if (invoice.dueDate === company.dueDate && (changed || !invoice.detail.startsWith(plan.name))) {
      await invoice.$query(this.app.db).patch({ detail: plan.name, value: Number(plan.value) });
      invoice.value = Number(plan.value);
    }
    const pix = await pixQrCodeFor(this.app, invoice.id);
    return { invoiceId: invoice.id, dueDate: invoice.dueDate, qrcode: { qrcode: pix.payload }, valor: { original: pix.value.toFixed(2) } };
  }
}
