import { ErrorCode, ValidationError, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { pixPayload } from '../pix/br-code.js';

/** A Pix to pay one invoice: the copy-and-paste code (also the QR's content) and its amount in reais. */
export interface PixCharge {
  qrcode: string;
  value: number;
}

/**
 * The one place a Pix for an invoice is made, whatever pays it: the amount is the invoice's, read
 * on the server. Manual mode: a static BR Code to the platform's key; a provider's driver answers
 * its own dynamic Pix here.
 */
export async function pixChargeFor(app: PluginApp<BillingConfig>, invoice: { id: number; value: number | string }): Promise<PixCharge> {
  const { config } = app;
  if (config.provider !== 'manual') throw new ValidationError('Billing is off in this installation', undefined, ErrorCode.ERR_BILLING_OFF);
  if (!config.pixKey) throw new ValidationError('No Pix key is configured', undefined, ErrorCode.ERR_PIX_NOT_CONFIGURED);
  const value = Number(invoice.value);
  const qrcode = pixPayload({ key: config.pixKey, name: config.pixName, city: config.pixCity, amount: value, txid: `FATURA${invoice.id}` });
  return { qrcode, value };
}
