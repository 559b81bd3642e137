import { z } from 'zod';
import { emailField, required } from '../users/users.schema.js';

/**
 * POST /auth/login. The password is only bounded above: 50, the most a user password may be, so
 * no existing account is ever refused by the form (the client's own 5-20 bound is for typing).
 */
export const loginSchema = z.object({
  email: emailField('E-mail inválido', 'E-mail inválido'),
  password: z
    .string({ error: required('Dado obrigatório') })
    .min(1, 'Dado obrigatório')
    .max(50, 'Senha até 50 caracteres'),
});

export type LoginInput = z.infer<typeof loginSchema>;
