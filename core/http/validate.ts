import type { ErrorCode } from '../contract/error-codes.js';
import { z } from 'zod';
import { NotFoundError, ValidationError } from '../errors.js';
import { withoutNul } from '../db/without-nul.js';

/**
 * Parses request input with a zod schema. Unknown fields are dropped (zod objects strip them);
 * the first problem becomes a 400 with the field name in front of its message. NUL characters are
 * removed from every text first (PostgreSQL cannot store them; see core/db/without-nul.ts).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(withoutNul(input ?? {}));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  throw new ValidationError(field ? `${field}: ${issue.message}` : issue.message, {
    issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}

/** The largest id the database holds (integer columns are 32-bit signed on PostgreSQL). */
export const MAX_ID = 2_147_483_647;

/** An id in a JSON body: a positive integer the database can hold. */
export const id = z.number({ error: 'Must be a number' }).int('Must be a whole number').positive('Must be a positive id').max(MAX_ID, 'No such id');

/** An id that may arrive as text (route and query parameters, multipart fields). */
export const idParam = z.coerce.number({ error: 'Must be a number' }).pipe(id);

/**
 * The id in a route parameter; anything but a positive integer the database can hold names
 * nothing: 404 with the resource's code, as a missing record answers.
 */
export function routeId(raw: string | undefined, notFoundCode: ErrorCode): number {
  const parsed = idParam.safeParse(raw);
  if (!parsed.success) throw new NotFoundError(notFoundCode);
  return parsed.data;
}

/** Query flags arrive as strings. */
export const booleanQuery = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const pageNumberQuery = z.coerce.number().int().min(1).max(100_000).default(1);

/**
 * A list of ids sent JSON-encoded in the query string (`tags=[1,2]`), as the spec's client does;
 * duplicates dropped. An empty list filters nothing.
 */
export const jsonIdsQuery = z
  .string({ error: 'Must be a JSON array of ids' })
  .transform((raw, ctx): unknown => {
    try {
      return raw.trim() === '' ? [] : JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Must be a JSON array of ids' });
      return z.NEVER;
    }
  })
  .pipe(z.array(idParam, { error: 'Must be a JSON array of ids' }).max(500, 'Too many ids'))
  .transform((ids) => [...new Set(ids)]);
