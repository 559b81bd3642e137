import { BaseModel } from 'atende/plugin';

export type InvoiceStatus = 'open' | 'paid';

export class Invoice extends BaseModel {
  static override tableName = 'invoices';

  companyId!: number;
  detail!: string;
  /** Decimal text or number, as the driver answers it: read with Number(). */
  value!: string | number;
  dueDate!: string;
  status!: InvoiceStatus;
  paidAt!: string | null;
  paidValue!: string | number | null;
  paidBy!: string | null;
  notifiedAt!: string | null;
  remindedAt!: string | null;
  /** The provider's payment that pays it (a subscription's charge or its Pix charge), or null. */
  providerPaymentId!: string | null;
  /** The amount of the open invoice's linked Pix charge: when the invoice's value moves away from it, the charge is replaced. */
  providerPaymentValue!: string | number | null;
}
