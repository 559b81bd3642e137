import { id, z } from 'atende/plugin';

const text = (max: number) => z.string().trim().max(max).optional().default('');
const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max);

/**
 * POST /subscription (spec §3 Subscription checkout payload). Only the address and the plan are
 * read; price, users, connections and invoiceId may come along and are ignored: what is paid is
 * the server's.
 */
export const checkoutSchema = z.object({
  firstName: required('O nome completo é obrigatório', 100),
  lastName: text(100),
  address2: required('O Endereço é obrigatório', 200),
  city: required('Cidade é obrigatória', 100),
  state: text(50),
  zipcode: required('CEP é obrigatório', 20),
  country: z.enum(['BR', 'usa'], { error: 'País é obrigatório' }),
  /** The chosen plan: its id (or the plan record the old client sent, with its id). */
  plan: z.union([id, z.object({ id }).transform((p) => p.id)]).optional(),
});

export type CheckoutInput = z.infer<typeof checkoutSchema>;
