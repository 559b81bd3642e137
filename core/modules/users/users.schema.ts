import { z } from 'zod';
import { id, idParam, pageNumberQuery } from '../../http/validate.js';

/** Error map: `message` when the field is missing, zod's own message otherwise. */
export const required =
  (message: string) =>
  (issue: { input: unknown }): string | undefined =>
    issue.input === undefined || issue.input === null ? message : undefined;

/** Lowercased and trimmed: e-mails are compared and stored in one form. */
export function emailField(invalid: string, missing: string) {
  return z.string({ error: required(missing) }).trim().toLowerCase().max(255, invalid).pipe(z.email(invalid));
}

const name = z.string({ error: required('Required') }).trim().min(2, 'Too Short!').max(50, 'Too Long!');
const email = emailField('Invalid email', 'Required');
/** Every user password, whoever sets it (the users form, a reset link, the CLI): 5 to 50 characters. */
export const passwordField = z.string({ error: required('Required') }).min(5, 'Too Short!').max(50, 'Too Long!');
const profile = z.enum(['admin', 'user', 'supervisor'], {
  error: (issue) => (issue.input === undefined ? 'Required' : 'Must be admin, user or supervisor'),
});
/** The spec reads both 'enabled'/'disabled' and 'enable'/'disable' (and 'desabled'); stored as the first pair. */
const allTicket = z
  .enum(['enabled', 'disabled', 'enable', 'disable', 'desabled'], { error: 'Must be enabled or disabled' })
  .transform((value): 'enabled' | 'disabled' => (value.startsWith('enable') ? 'enabled' : 'disabled'));
/** The default connection; an empty select sends ''. */
const whatsappId = z.preprocess((value) => (value === '' ? null : value), id.nullable());
const queueIds = z
  .array(id)
  .max(1000, 'Too many queues')
  .transform((ids) => [...new Set(ids)]);

export const createUserSchema = z.object({
  name,
  email,
  password: passwordField,
  profile,
  allTicket: allTicket.optional(),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.optional(),
  /** Honoured for super users only; everyone else creates users in their own company. */
  companyId: id.optional(),
  super: z.boolean().optional(),
  financial: z.boolean().optional(),
});

export const updateUserSchema = z.object({
  name: name.optional(),
  email: email.optional(),
  /** Optional on edit: an empty password field means "keep the current one". */
  password: z.preprocess((value) => (value === '' || value === null ? undefined : value), passwordField.optional()),
  profile: profile.optional(),
  allTicket: allTicket.optional(),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.optional(),
  super: z.boolean().optional(),
  financial: z.boolean().optional(),
});

/** GET /users: 20 per page, search lowercased over name and e-mail. */
export const USERS_PAGE_SIZE = 20;

export const listUsersQuery = z.object({
  searchParam: z.string().trim().toLowerCase().max(100, 'Too Long!').default(''),
  pageNumber: pageNumberQuery,
  /** Honoured for super users only (the Empresas tab's users of a company); everyone else lists their own. */
  companyId: idParam.optional(),
});

export const listNamesQuery = z.object({
  companyId: idParam.optional(),
});

export type CreateUserBody = z.infer<typeof createUserSchema>;
export type UpdateUserBody = z.infer<typeof updateUserSchema>;
