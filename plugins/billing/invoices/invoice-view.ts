import type { Invoice } from './invoice.model.js';

/** An invoice as GET /invoices/all answers it (spec §3 Invoice), with its company for super users. */
export interface InvoiceView {
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

/** GET /invoices/:id/pix: the copy-and-paste code for the invoice's amount, built on the server. */
export interface InvoicePixView {
  invoiceId: number;
  value: number;
  dueDate: string;
  payload: string;
  /** The provider's QR image (PNG, base64), or null: the page draws the payload. */
  encodedImage: string | null;
}

/** An invoices row (camelCase, as the query builder answers it) with its company's name. */
export type InvoiceRow = Pick<Invoice, 'id' | 'companyId' | 'detail' | 'value' | 'dueDate' | 'status' | 'paidAt' | 'paidValue'> & { companyName: string };

export function toInvoiceView(row: InvoiceRow): InvoiceView {
  return {
    id: row.id,
    companyId: row.companyId,
    companyName: row.companyName,
    detail: row.detail,
    value: Number(row.value),
    dueDate: row.dueDate,
    status: row.status,
    paidAt: row.paidAt,
    paidValue: row.paidValue === null ? null : Number(row.paidValue),
  };
}
