import { id, idParam, z, ValidationError } from 'atende/plugin';
import { isValidDocument } from '../signup/documents.js';

const digits = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).replace(/\D/g, '') : value);

/** Luhn's check digit: a mistyped card number is caught before the provider is asked. */
function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Spec §5 Card, checked on the server; the number goes to the provider and is never stored. */
const cardObject = z.object({
  number: z.preprocess(
    digits,
    z
      .string({ error: 'Número do cartão é obrigatório' })
      .regex(/^\d{16}$/, 'O número do cartão tem 16 dígitos')
      .pipe(z.string().refine(luhn, 'Número do cartão inválido')),
  ),
  holderName: z
    .string({ error: 'Nome do titular é obrigatório' })
    .trim()
    .min(2, 'Nome do titular é obrigatório')
    .max(100, 'Nome do titular muito longo')
    .regex(/^[\p{L} ]+$/u, 'O nome do titular tem apenas letras e espaços'),
  expiryMonth: z.preprocess(digits, z.string({ error: 'Validade é obrigatória' }).regex(/^(0?[1-9]|1[0-2])$/, 'Mês de validade inválido')).transform((m) => m.padStart(2, '0')),
  expiryYear: z.preprocess(digits, z.string({ error: 'Validade é obrigatória' }).regex(/^\d{4}$/, 'Ano de validade inválido')),
  ccv: z.preprocess(digits, z.string({ error: 'CCV é obrigatório' }).regex(/^\d{3,4}$/, 'O CCV tem 3 ou 4 dígitos')),
  postalCode: z.preprocess(digits, z.string({ error: 'CEP inválido' }).regex(/^\d{8}$/, 'CEP inválido')),
  addressNumber: z.string({ error: 'Número do endereço é obrigatório' }).trim().min(2, 'O número do endereço tem ao menos 2 caracteres').max(10, 'Número do endereço muito longo'),
});

/** A card's expiry: not past, and not further than the issuers give. */
function checkedExpiry<T extends z.ZodType<{ expiryMonth: string; expiryYear: string }>>(schema: T): T {
  return schema
    .refine(
      ({ expiryMonth, expiryYear }) => {
        const now = new Date();
        const [year, month] = [Number(expiryYear), Number(expiryMonth)];
        return year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1);
      },
      { message: 'Cartão vencido', path: ['expiryYear'] },
    )
    .refine(({ expiryYear }) => Number(expiryYear) <= new Date().getUTCFullYear() + 20, { message: 'Ano de validade inválido', path: ['expiryYear'] });
}

export const cardSchema = checkedExpiry(cardObject);

/**
 * The signup's Cartão step: the card and its holder's CPF/CNPJ and phone, which Asaas asks with a
 * card (the holder may not be the company). Passed to the provider, never stored.
 */
export const signupCardSchema = checkedExpiry(
  cardObject.extend({
    holderCpfCnpj: z.string({ error: 'CPF/CNPJ do titular é obrigatório' }).trim().max(20).refine(isValidDocument, 'Documento inválido').transform((d) => d.replace(/\D/g, '')),
    holderPhone: z.string({ error: 'Telefone do titular é obrigatório' }).trim().min(10, 'Telefone muito curto').max(20, 'Telefone muito longo'),
  }),
);

export type SignupCardFields = z.infer<typeof signupCardSchema>;
export type CardFields = z.infer<typeof cardSchema>;

/** DELETE …/by-id/:id: the spec sends companyId in the body; a query parameter does too (DELETE bodies are often dropped). */
export const removeInput = z.object({ companyId: idParam.optional() });

export const createCustomerBody = z.object({
  companyId: id,
  /** Only for a company that did not sign up with one: a CPF or CNPJ by its check digits. */
  cpfCnpj: z.string().trim().max(20).refine(isValidDocument, 'Documento inválido').optional(),
});

export const createSubscriptionBody = z.object({ companyId: id, creditCard: z.unknown() });

export const paymentsBody = z.object({ id, offset: z.coerce.number().int().min(0).max(100_000).default(0) });

export const changePlanBody = z.object({ companyId: id, planId: id });

/**
 * The card, or 400 with each problem as a description (spec: 'Each error description is shown as
 * an error toast'), the way the provider's own refusals come.
 */
export function parseCard(input: unknown): CardFields {
  const parsed = cardSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => ({ code: i.path.join('.'), description: i.message }));
  throw new ValidationError(errors.map((e) => e.description).join('; '), { errors });
}
