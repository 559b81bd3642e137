import { booleanQuery, z } from 'atende/plugin';

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
