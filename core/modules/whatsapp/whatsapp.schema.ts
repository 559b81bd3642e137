import { z } from 'zod';
import { id } from '../../http/validate.js';
import { required } from '../users/users.schema.js';

const name = z.string({ error: required('Required') }).trim().min(2, 'Too Short!').max(50, 'Too Long!');
const message = z.string({ error: 'Must be text' }).max(10_000, 'Too Long!');
const wholeNumber = () =>
  z.coerce.number({ error: 'Must be a number' }).int('Must be a whole number').min(0, 'Must not be negative').max(1_000_000, 'Too large');
/** Form fields arrive as numbers or numeric text; an emptied field counts as absent. */
const count = z.preprocess((value) => (value === '' || value === null ? undefined : value), wholeNumber().optional());
/** Numbers that may be cleared: '' and null store null. */
const nullableCount = z.preprocess((value) => (value === '' ? null : value), wholeNumber().nullable().optional());
const nullableId = z.preprocess((value) => (value === '' ? null : value), id.nullable());
const queueIds = z
  .array(id)
  .max(1000, 'Too many queues')
  .transform((ids) => [...new Set(ids)]);
/** 'beta' is what the old product called its Baileys driver: accepted and stored as 'baileys'. */
const provider = z
  .enum(['baileys', 'simulator', 'beta'], { error: 'Must be baileys or simulator' })
  .transform((value): 'baileys' | 'simulator' => (value === 'beta' ? 'baileys' : value));

/** Every field but the name; each optional. */
const optionalFields = z
  .object({
    isDefault: z.boolean({ error: 'Must be true or false' }),
    greetingMessage: message,
    complationMessage: message,
    outOfHoursMessage: message,
    ratingMessage: message,
    expiresInactiveMessage: message,
    expiresTicket: count,
    timeUseBotQueues: count,
    maxUseBotQueues: count,
    timeToTransfer: nullableCount,
    transferQueueId: nullableId,
    /** The AI prompt (plugins/prompts) answering while a ticket has no queue yet. */
    promptId: nullableId,
    /** The queue integration (plugins/integrations) answering while a ticket has no queue yet. */
    integrationId: nullableId,
    queueIds,
    provider,
  })
  .partial();

/** POST /whatsapp. `status`, `session`, `queues`, `token` and unknown fields are dropped. */
export const createWhatsappSchema = optionalFields.extend({ name });

/** PUT /whatsapp/:id: the same fields, the name optional too. */
export const updateWhatsappSchema = optionalFields.extend({ name: name.optional() });

export type CreateWhatsappBody = z.infer<typeof createWhatsappSchema>;
export type UpdateWhatsappBody = z.infer<typeof updateWhatsappSchema>;
