/** What the checkout routes answer; read by the web too. */

/** GET /subscription: what the page shows, read on the server. */
export interface CheckoutView {
  companyName: string;
  email: string;
  dueDate: string | null;
  /** Until the first invoice is paid the company is on trial: the days left, rounded up (0 once past). */
  trial: boolean;
  trialDaysLeft: number;
  plan: { id: number; name: string; value: number } | null;
}

/** POST /subscription's answer (spec §3: the Pix has qrcode.qrcode and valor.original). */
export interface CheckoutAnswer {
  invoiceId: number;
  dueDate: string;
  qrcode: { qrcode: string };
  valor: { original: string };
}
