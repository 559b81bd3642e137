import { z } from 'zod';
import { required } from '../users/users.schema.js';

/** A calendar day YYYY-MM-DD that exists (2025-02-30 does not). */
const day = z
  .string({ error: required('Obrigatório') })
  .trim()
  .min(1, 'Obrigatório')
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date YYYY-MM-DD')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, 'Must be a date YYYY-MM-DD');

/** Whole days from `from` to `to` (0 when equal, negative when reversed). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** What a cleared picker sends ('') and the 'none' period (0) mean: no value. */
const unset = (value: unknown) => (value === '' || value === '0' || value === 0 ? undefined : value);

/**
 * GET /dashboard: the last `days` local days (today included), or the local days date_from..date_to.
 * Neither is the service's 'Parametrize o filtro'; any companyId given is dropped with the rest.
 */
export const dashboardQuery = z
  .object({
    days: z.preprocess(unset, z.coerce.number().int('Must be a whole number of days').min(1).max(365).optional()),
    date_from: z.preprocess(unset, day.optional()),
    date_to: z.preprocess(unset, day.optional()),
  })
  .refine((q) => !q.date_from || !q.date_to || daysBetween(q.date_from, q.date_to) >= 0, {
    message: 'Must not be before date_from',
    path: ['date_to'],
  });

/** The longest range the per-day chart draws. */
export const MAX_RANGE_DAYS = 366;

/** GET /dashboard/ticketsUsers and /dashboard/ticketsDay: the local days initialDate..finalDate. */
export const dayRangeQuery = z
  .object({ initialDate: day, finalDate: day })
  .refine((q) => daysBetween(q.initialDate, q.finalDate) >= 0, { message: 'Must not be before initialDate', path: ['finalDate'] })
  .refine((q) => daysBetween(q.initialDate, q.finalDate) < MAX_RANGE_DAYS, { message: `At most ${MAX_RANGE_DAYS} days`, path: ['finalDate'] });

export type DashboardQuery = z.infer<typeof dashboardQuery>;
export type DayRangeQuery = z.infer<typeof dayRangeQuery>;
