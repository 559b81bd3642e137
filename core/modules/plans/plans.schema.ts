import { z } from 'zod';
import { PLAN_FLAGS, type PlanFlag } from '../../contract/views.js';

/** What a plan limits, and the table each count is taken from (plans.service.ts). */
export const PLAN_RESOURCES = ['users', 'connections', 'queues'] as const;
export type PlanResource = (typeof PLAN_RESOURCES)[number];

const count = z.number().int().min(0).max(1_000_000);
// decimal(12, 2) in the database: cents, at most ten digits before the point.
const money = z
  .number()
  .min(0)
  .max(9_999_999_999)
  .transform((v) => Math.round(v * 100) / 100);

/** One zod field per plan flag (useCampaigns, useKanban, …), built from the model's list. */
function flagFields<T extends z.ZodType>(make: () => T): Record<PlanFlag, T> {
  return Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, make()])) as Record<PlanFlag, T>;
}

const planFields = {
  name: z.string().trim().min(1).max(100),
  users: count,
  connections: count,
  queues: count,
  value: money,
};

/**
 * Flags and limits of the installation's catalogue (GET /api/plans/features), the spec's flags
 * included: `features: { useEcho: true }`, `limits: { echoesPerMonth: 500 }` (null: back to the
 * declared default). The spec's flags are also accepted as top-level booleans, which win. Keys the
 * catalogue does not know are dropped, like any unknown field.
 */
const catalogueFields = {
  ...flagFields(() => z.boolean().optional()),
  features: z.record(z.string().max(100), z.boolean()).optional(),
  limits: z.record(z.string().max(100), count.nullable()).optional(),
};

/** POST /api/plans: name, the three counts and the value are required; flags not sent are on. */
export const planCreateSchema = z.object({ ...planFields, ...catalogueFields });

/** PUT /api/plans/:id: any subset of the same fields; flags and limits not sent keep their value. */
export const planUpdateSchema = z.object({ ...planFields, ...catalogueFields }).partial();

export type PlanCreateInput = z.infer<typeof planCreateSchema>;
export type PlanUpdateInput = z.infer<typeof planUpdateSchema>;
