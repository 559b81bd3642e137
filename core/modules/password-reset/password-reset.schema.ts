import { z } from 'zod';
import { MAIL_LANGUAGES } from '../../mail/mail.service.js';
import { emailField, passwordField, required } from '../users/users.schema.js';

/** The spec's recovery messages: 'Digite o e-mail' when missing, 'E-mail inválido' when malformed. */
const email = emailField('E-mail inválido', 'Digite o e-mail');

/** POST /users/reset/password. `language` is the asking page's, for the e-mail (pt-BR otherwise). */
export const requestResetSchema = z.object({
  email,
  language: z.enum(MAIL_LANGUAGES).catch('pt-BR'),
});

/** POST /users/reset/change-password: the link's e-mail and token (`hash`), and the new password. */
export const changePasswordSchema = z.object({
  email,
  hash: z.string({ error: required('Digite a hash') }).trim().min(1, 'Digite a hash').max(200, 'Link inválido'),
  password: passwordField,
});

export type RequestResetInput = z.infer<typeof requestResetSchema>;
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
