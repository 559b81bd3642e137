import { ErrorCode, NotFoundError, ValidationError } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { pixPayload } from '../pix/br-code.js';
import type { PaymentProvider, PixCode, PixInvoice } from './payment-provider.js';

function noCards(): never {
  throw new ValidationError('Card payments need a payment provider; this installation bills by Pix', undefined, ErrorCode.ERR_NO_CARD_PAYMENTS);
}

/**
 * Manual mode: no provider. An invoice is paid by a static Pix BR Code for its amount to the
 * platform's key, and a super user marks it paid once the money arrives. No cards, no webhooks.
 */
export class ManualProvider implements PaymentProvider {
  readonly name = 'manual' as const;
  readonly cards = false;

  constructor(private readonly config: BillingConfig) {}

  createCustomer = noCards;
  removeCustomer = noCards;
  createCardSubscription = noCards;
  setPaymentValue = noCards;
  listSubscriptionPayments = noCards;
  changePlan = noCards;
  cancelSubscription = noCards;
  /** Manual mode makes no charges at a provider: there is none to cancel. */
  cancelPayment = noCards;

  async pixQrCodeFor(invoice: PixInvoice): Promise<PixCode> {
    if (!this.config.pixKey) throw new ValidationError('No Pix key is configured', undefined, ErrorCode.ERR_PIX_NOT_CONFIGURED);
    const payload = pixPayload({ key: this.config.pixKey, name: this.config.pixName, city: this.config.pixCity, amount: invoice.value, txid: `FATURA${invoice.id}` });
    return { payload, encodedImage: null, expiresAt: null, providerPaymentId: null };
  }

  parseWebhook(): never {
    throw new NotFoundError(ErrorCode.ERR_ROUTE_NOT_FOUND, 'No payment provider sends webhooks to this installation');
  }
}
