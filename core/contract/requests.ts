/**
 * What the API accepts, as the clients send it: the input side of the zod schemas the routes
 * validate with (defaults still optional, before any transform). The web imports these with
 * `import type`, so the compiler erases the import and no server code reaches the bundle.
 */
import type { z } from 'zod';
import type { schedulesSchema } from '../modules/companies/companies.schema.js';
import type { createContactSchema, updateContactSchema } from '../modules/contacts/contacts.schema.js';
import type { helpCreateSchema, helpUpdateSchema } from '../modules/helps/helps.schema.js';
import type { editMessageSchema, sendMessageSchema } from '../modules/messages/messages.schema.js';
import type { planCreateSchema, planUpdateSchema } from '../modules/plans/plans.schema.js';
import type { optionCreateSchema, optionUpdateSchema } from '../modules/queue-options/queue-options.schema.js';
import type { queueCreateSchema, queueUpdateSchema } from '../modules/queues/queues.schema.js';
import type { createQuickMessageSchema, updateQuickMessageSchema } from '../modules/quick-messages/quick-messages.schema.js';
import type { settingUpdateSchema } from '../modules/settings/settings.schema.js';
import type { createTagSchema, updateTagSchema } from '../modules/tags/tags.schema.js';
import type { createNoteSchema, createTicketSchema, updateTicketSchema } from '../modules/tickets/tickets.schema.js';
import type { createUserSchema, updateUserSchema } from '../modules/users/users.schema.js';

export type UserCreateBody = z.input<typeof createUserSchema>;
export type UserUpdateBody = z.input<typeof updateUserSchema>;
export type QueueCreateBody = z.input<typeof queueCreateSchema>;
export type QueueUpdateBody = z.input<typeof queueUpdateSchema>;
export type QueueOptionCreateBody = z.input<typeof optionCreateSchema>;
export type QueueOptionUpdateBody = z.input<typeof optionUpdateSchema>;
export type ContactCreateBody = z.input<typeof createContactSchema>;
export type ContactUpdateBody = z.input<typeof updateContactSchema>;
export type TagCreateBody = z.input<typeof createTagSchema>;
export type TagUpdateBody = z.input<typeof updateTagSchema>;
export type QuickMessageCreateBody = z.input<typeof createQuickMessageSchema>;
export type QuickMessageUpdateBody = z.input<typeof updateQuickMessageSchema>;
export type PlanCreateBody = z.input<typeof planCreateSchema>;
export type PlanUpdateBody = z.input<typeof planUpdateSchema>;
export type HelpCreateBody = z.input<typeof helpCreateSchema>;
export type HelpUpdateBody = z.input<typeof helpUpdateSchema>;
export type CompanySchedulesBody = z.input<typeof schedulesSchema>;
export type SettingUpdateBody = z.input<typeof settingUpdateSchema>;
export type TicketCreateBody = z.input<typeof createTicketSchema>;
export type TicketUpdateBody = z.input<typeof updateTicketSchema>;
export type TicketNoteCreateBody = z.input<typeof createNoteSchema>;
export type MessageSendBody = z.input<typeof sendMessageSchema>;
export type MessageEditBody = z.input<typeof editMessageSchema>;
