import { booleanQuery, z, type RouteDoc } from 'atende/plugin';

/** POST /api/messages/send, as JSON or as multipart fields beside the `medias` files. */
export const sendSchema = z.object({
  number: z.string().trim().regex(/^\d{8,20}$/, 'Digits only: country code, area code and number'),
  body: z.string().max(4096).default(''),
  closeTicket: booleanQuery.optional(),
});
export type SendInput = z.infer<typeof sendSchema>;

export const idempotencyKey = z.string().trim().min(1).max(255);

/** Files one request may carry. */
export const MAX_FILES = 10;

/** POST /api/messages/send in the OpenAPI document (GET /api/openapi.json). */
export const sendDocs: RouteDoc[] = [
  {
    method: 'POST',
    path: '/messages/send',
    tag: 'messages',
    auth: 'connection',
    summary: "Send through a connection with the connection's token",
    description:
      'The number is checked on WhatsApp, the contact found or created and the message queued on the contact\'s ticket (opened when there is none). JSON, or multipart with up to 10 files in medias (the body as caption). Rate-limited per token (429 with Retry-After).',
    headers: z.object({ 'Idempotency-Key': idempotencyKey.optional().describe('A retried request with the same key sends nothing twice and answers the first answer') }),
    body: sendSchema,
    multipart: { fields: sendSchema, files: 'medias' },
    answer: { status: 200, description: 'Queued', schema: z.object({ ticketId: z.number().int(), messageIds: z.array(z.number().int()) }) },
  },
];
