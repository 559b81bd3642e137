import { z } from 'atende/plugin';

/** The most days a code adds to the trial (a year), and the discounts it may give (a free first month is a trial code). */
export const MAX_EXTRA_TRIAL_DAYS = 365;
export const MAX_DISCOUNT_PERCENT = 99;

export const PROMOTION_MESSAGES = {
  codeTaken: 'Código já cadastrado',
} as const;

/** Letters, digits, - and _; kept in upper case. */
export const promotionCode = z
  .string({ error: 'Código é obrigatório' })
  .trim()
  .min(3, 'Código muito curto (mínimo 3)')
  .max(30, 'Código muito longo (máximo 30)')
  .regex(/^[A-Za-z0-9_-]+$/, 'Use apenas letras, números, - e _')
  .transform((code) => code.toUpperCase());

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Data inválida')
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), 'Data inválida');

export const promotionSchema = z
  .object({
    code: promotionCode,
    kind: z.enum(['trialDays', 'discount'], { error: 'Tipo inválido' }),
    amount: z.number({ error: 'Valor é obrigatório' }).int('Valor deve ser inteiro').min(1, 'Valor mínimo 1'),
    expiresAt: day.nullable().default(null),
    usesLeft: z.number({ error: 'Usos é obrigatório' }).int('Usos deve ser inteiro').min(0, 'Usos não pode ser negativo').max(1_000_000, 'Usos demais'),
  })
  .superRefine((p, ctx) => {
    if (p.kind === 'trialDays' && p.amount > MAX_EXTRA_TRIAL_DAYS) ctx.addIssue({ code: 'custom', path: ['amount'], message: `Máximo de ${MAX_EXTRA_TRIAL_DAYS} dias` });
    if (p.kind === 'discount' && p.amount > MAX_DISCOUNT_PERCENT) ctx.addIssue({ code: 'custom', path: ['amount'], message: `Desconto máximo de ${MAX_DISCOUNT_PERCENT}%` });
  });

export type PromotionInput = z.infer<typeof promotionSchema>;
