import { ErrorCode, NotFoundError, ValidationError, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { digitsOnly } from '../signup/documents.js';
import type { PaymentProvider } from './payment-provider.js';

const DOCUMENT_MISSING = 'A empresa não tem CPF/CNPJ cadastrado: informe-o para criar o cliente';

/** The company's customer id at `provider`, or null. */
export async function customerIdOf(app: PluginApp<BillingConfig>, provider: PaymentProvider, companyId: number): Promise<string | null> {
  const row = await app.db('billing_customers').where({ companyId, provider: provider.name }).first('customerId');
  return (row?.customerId as string | undefined) ?? null;
}

/** The CPF or CNPJ the company signed up with (digits), or null. */
export async function documentOf(app: PluginApp<BillingConfig>, companyId: number): Promise<string | null> {
  const row = await app.db('company_documents').where({ companyId }).first('document');
  return (row?.document as string | undefined) ?? null;
}

/**
 * The company's customer at the provider, made once (spec: 'Criar Cliente'). A company created by a
 * super user has no document yet: `cpfCnpj` gives one, kept as the company's document.
 */
export async function ensureCustomer(app: PluginApp<BillingConfig>, provider: PaymentProvider, companyId: number, cpfCnpj?: string): Promise<string> {
  const known = await customerIdOf(app, provider, companyId);
  if (known) return known;
  const company = await app.services.companies.get(companyId).catch(() => {
    throw new NotFoundError(ErrorCode.ERR_NO_COMPANY_FOUND);
  });
  let document = await documentOf(app, companyId);
  if (!document && cpfCnpj) {
    document = digitsOnly(cpfCnpj);
    const taken = await app.db('company_documents').where({ document }).first('id');
    if (taken) throw new ValidationError('Cpf/Cnpj já cadastrado', { field: 'cpfCnpj' });
    await app.db('company_documents').insert({ companyId, document, createdAt: new Date().toISOString() });
  }
  if (!document) throw new ValidationError(DOCUMENT_MISSING, { field: 'cpfCnpj', errors: [{ code: 'cpfCnpj', description: DOCUMENT_MISSING }] }, ErrorCode.ERR_COMPANY_DOCUMENT_MISSING);
  const { id } = await provider.createCustomer({ companyId, name: company.name, email: company.email, phone: company.phone ?? '', cpfCnpj: document });
  // Two clicks at once make two customers at the provider; the unique row keeps the first one.
  await app.db('billing_customers').insert({ companyId, provider: provider.name, customerId: id, createdAt: new Date().toISOString() }).onConflict(['companyId', 'provider']).ignore();
  return (await customerIdOf(app, provider, companyId)) ?? id;
}
