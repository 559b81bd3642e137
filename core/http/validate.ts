import { z } from 'zod';
import { NotFoundError, ValidationError } from '../errors.js';

/**
 * Parses request input with a zod schema. Unknown fields are dropped (zod objects strip them);
 * the first problem becomes a 400 with the field name in front of its message.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  throw new ValidationError(field ? `${field}: ${issue.message}` : issue.message, {
    issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}

/** A positive integer id from a route parameter. */
export const idParam = z.coerce.number().int().positive();

/** The id in a route parameter; anything but a positive integer names nothing: 404 with the resource's code. */
export function routeId(raw: string | undefined, notFoundCode: string): number {
  const parsed = idParam.safeParse(raw);
  if (!parsed.success) throw new NotFoundError(notFoundCode);
  return parsed.data;
}

/** Query flags arrive as strings. */
export const booleanQuery = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const pageNumberQuery = z.coerce.number().int().min(1).max(100_000).default(1);
