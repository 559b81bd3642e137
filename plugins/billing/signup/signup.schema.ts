import { id, z } from 'atende/plugin';
import { signupCardSchema } from '../subscriptions/subscriptions.schema.js';
import { isValidDocument } from './documents.js';

/** The spec's messages (§5 Signup company validation), verbatim. */
export const SIGNUP_MESSAGES = {
  nameTaken: 'Nome já cadastrado',
  phoneTaken: 'Telefone já cadastrado',
  emailTaken: 'E-mail já cadastrado',
  documentTaken: 'Cpf/Cnpj já cadastrado',
  invalidDocument: 'Documento inválido',
  invalidPromotion: 'Promoção inválida ou vencida',
} as const;

/** POST /companies/cadastro: recurrence, due date and status are the server's, never the browser's. */
export const signupSchema = z.object({
  name: z.string({ error: 'Nome é obrigatório' }).trim().min(2, 'Nome muito curto').max(50, 'Nome muito longo'),
  cpf_cnpj: z.string({ error: 'Cpf/Cnpj é obrigatório' }).trim().min(1, 'Cpf/Cnpj é obrigatório').refine(isValidDocument, SIGNUP_MESSAGES.invalidDocument),
  email: z.string({ error: 'E-mail é obrigatório' }).trim().toLowerCase().pipe(z.email('E-mail inválido')),
  phone: z.string({ error: 'Telefone é obrigatório' }).trim().min(10, 'Telefone muito curto').max(20, 'Telefone muito longo'),
  password: z.string({ error: 'Senha é obrigatória' }).min(5, 'Senha muito curta').max(50, 'Senha muito longa'),
  planId: id,
  code: z.string().trim().max(50).optional(),
  /** The Cartão step's card, when the installation takes cards (Asaas): required there, ignored in manual mode. */
  card: signupCardSchema.optional(),
});

export type SignupInput = z.infer<typeof signupSchema>;
