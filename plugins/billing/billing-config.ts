import { z } from 'atende/plugin';

/**
 * The platform owner's billing settings (`pluginConfig.billing` in atende.config.json, or
 * ATENDE_PLUGIN_BILLING_<KEY>). Without a provider, billing is off: no invoices are opened.
 */
export const billingConfig = z.object({
  /**
   * manual: invoices paid by Pix to the platform's key and marked paid by a super user. asaas:
   * cards and Pix charged through Asaas (REST API v3), invoices paid by its webhook.
   */
  provider: z.enum(['manual', 'asaas']).optional(),
  /** Asaas's API address, /v3 included (its sandbox: https://api-sandbox.asaas.com/v3). */
  asaasUrl: z.url({ protocol: /^https?$/ }).default('https://api.asaas.com/v3'),
  /** The platform's Asaas API key, sent as the access_token header. */
  asaasKey: z.string().trim().default(''),
  /** The token Asaas sends in asaas-access-token with each webhook call; without it, webhooks are refused. */
  asaasWebhookToken: z.string().trim().default(''),
  pixKey: z.string().trim().max(77).default(''),
  pixName: z.string().trim().max(25).default('Atende'),
  pixCity: z.string().trim().max(15).default('Sao Paulo'),
  /** Days past the due date before a company is blocked (its WhatsApp sessions stop) until it pays. */
  blockAfterDays: z.number().int().min(0).max(365).default(3),
  /** Days before the due date the company is reminded of an open invoice by e-mail. */
  remindDaysBefore: z.number().int().min(0).max(60).default(3),
  /** Self-signup (spec: Signup) while billing is on; false turns the public page and its calls off. */
  signup: z.preprocess((v) => (typeof v === 'string' ? v !== 'false' && v !== '0' : v), z.boolean().default(true)),
});

export type BillingConfig = z.infer<typeof billingConfig>;

/** The names the issue gave installers, read beside ATENDE_PLUGIN_BILLING_<KEY>. */
export const billingConfigEnv: Record<string, string> = {
  provider: 'ATENDE_BILLING_PROVIDER',
  asaasUrl: 'ATENDE_ASAAS_URL',
  asaasKey: 'ATENDE_ASAAS_KEY',
  asaasWebhookToken: 'ATENDE_ASAAS_WEBHOOK_TOKEN',
  pixKey: 'ATENDE_PIX_KEY',
  pixName: 'ATENDE_PIX_NAME',
  pixCity: 'ATENDE_PIX_CITY',
};
