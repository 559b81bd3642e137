/** An invoice as GET /api/invoices/all answers it (plugins/billing/invoices/invoice-view.ts). */
export interface InvoiceRecord {
  id: number;
  companyId: number;
  companyName: string;
  detail: string;
  value: number;
  dueDate: string;
  status: 'open' | 'paid';
  paidAt: string | null;
  paidValue: number | null;
}

export interface InvoicePix {
  invoiceId: number;
  value: number;
  dueDate: string;
  payload: string;
  /** The provider's QR image (PNG, base64), or null. */
  encodedImage: string | null;
}

export interface BillingStatus {
  provider: 'manual' | 'asaas' | null;
  pix: boolean;
}

/** The spec's three states: Pago; Vencido once the due date is before today; Em Aberto. */
export type InvoiceState = 'paid' | 'overdue' | 'open';

export function invoiceState(invoice: InvoiceRecord, today: string): InvoiceState {
  if (invoice.status === 'paid') return 'paid';
  return invoice.dueDate < today ? 'overdue' : 'open';
}

/** Prices are in reais, written the Brazilian way whatever the interface language. */
export const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
