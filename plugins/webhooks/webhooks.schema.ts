import { pageNumberQuery, z } from 'atende/plugin';
import { WEBHOOK_EVENTS } from './webhooks.contract.js';

const url = z.string().trim().min(1, 'Required').max(2000, 'Too Long!');
const events = z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'Choose at least one event').transform((list) => [...new Set(list)]);

export const createWebhookSchema = z.object({
  url,
  events,
  active: z.boolean().default(true),
});

export const updateWebhookSchema = z.object({
  url: url.optional(),
  events: events.optional(),
  active: z.boolean().optional(),
});

export const deliveriesQuery = z.object({ pageNumber: pageNumberQuery });

export type CreateWebhook = z.infer<typeof createWebhookSchema>;
export type UpdateWebhook = z.infer<typeof updateWebhookSchema>;
