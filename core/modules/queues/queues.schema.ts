import { z } from 'zod';
import { id, idParam } from '../../http/validate.js';
import { schedulesSchema } from '../companies/companies.schema.js';
import { required } from '../users/users.schema.js';

/** The optional texts: null (an emptied field) means empty. */
const nullAsEmpty = (value: unknown) => (value === null ? '' : value);
const text = z.preprocess(nullAsEmpty, z.string({ error: 'Must be text' }).trim().max(5000, 'Too Long!'));

const name = z.string({ error: required('Required') }).trim().min(2, 'Too Short!').max(50, 'Too Long!');
/** 3 to 9 characters (the spec's bound): '#abc', '#aabbcc', '#aabbccdd' or a colour name. */
const color = z.string({ error: required('Required') }).trim().min(3, 'Too Short!').max(9, 'Too Long!');
/** Queues without an order come after the ordered ones; an emptied field sends ''. */
const orderQueue = z.preprocess(
  (value) => (value === '' ? null : value),
  z.number({ error: 'Must be a number' }).int('Must be a whole number').min(0, 'Must be 0 or more').max(1_000_000, 'Too big').nullable(),
);
/** Same week entries as the company's working hours (companies.schema). */
const schedules = schedulesSchema.shape.schedules;
/**
 * The AI prompt (plugins/prompts) or queue integration (plugins/integrations) answering in the
 * queue; a bot of another company is never run, so the id is not checked here.
 */
const botLink = z.preprocess((value) => (value === '' ? null : value), id.nullable());

export const queueCreateSchema = z.object({
  name,
  color,
  greetingMessage: text.default(''),
  outOfHoursMessage: text.default(''),
  orderQueue: orderQueue.default(null),
  schedules: schedules.optional(),
  promptId: botLink.optional(),
  integrationId: botLink.optional(),
});

export const queueUpdateSchema = z.object({
  name: name.optional(),
  color: color.optional(),
  greetingMessage: text.optional(),
  outOfHoursMessage: text.optional(),
  orderQueue: orderQueue.optional(),
  schedules: schedules.optional(),
  promptId: botLink.optional(),
  integrationId: botLink.optional(),
});

/** GET /api/queue: super users may read another company's queues. */
export const listQueuesQuery = z.object({
  companyId: idParam.optional(),
});

export type QueueCreateInput = z.infer<typeof queueCreateSchema>;
export type QueueUpdateInput = z.infer<typeof queueUpdateSchema>;
