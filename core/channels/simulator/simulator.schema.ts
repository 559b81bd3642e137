import { z } from 'zod';
import { simulatedNumber } from './numbers.js';

const number = z
  .string({ error: 'Required' })
  .trim()
  .max(30, 'Too Long!')
  .refine((value) => simulatedNumber(value) !== null, 'Must be a phone number of 8 to 15 digits');

export const scanSchema = z.object({
  /** The number the simulated phone connects as; a random mobile when absent. */
  number: number.optional(),
});

/** A customer's message. Media travels as base64 (within the 1 MB JSON limit). */
export const inboundSchema = z
  .object({
    id: z.string().trim().min(1).max(100, 'Too Long!').optional(),
    from: number,
    name: z.string({ error: 'Required' }).trim().min(1, 'Required').max(100, 'Too Long!'),
    body: z.string({ error: 'Must be text' }).max(10_000, 'Too Long!').default(''),
    mediaType: z.enum(['image', 'audio', 'video', 'application', 'sticker'], { error: 'Must be image, audio, video, application or sticker' }).optional(),
    mediaBase64: z.base64('Must be base64').optional(),
    mediaName: z.string().trim().min(1).max(200, 'Too Long!').optional(),
    quotedId: z.string().trim().min(1).max(100, 'Too Long!').optional(),
  })
  .superRefine((input, ctx) => {
    if ((input.mediaType === undefined) !== (input.mediaBase64 === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['mediaBase64'], message: 'mediaType and mediaBase64 go together' });
    }
    if (!input.body.trim() && input.mediaBase64 === undefined) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'Required' });
    }
  });

export type InboundBody = z.infer<typeof inboundSchema>;

/** Messages one request may carry: enough for a load generator, small enough for the 1 MB JSON limit. */
export const INBOUND_BATCH_MAX = 1000;

/** Many customers' messages at once, in the order they are received. */
export const inboundBatchSchema = z.array(inboundSchema).min(1, 'Must hold at least one message');

/** WhatsApp limits the connection's reach (active) or lifts the limit; `until` when it says when it ends. */
export const limitSchema = z.object({
  active: z.boolean({ error: 'Must be true or false' }),
  until: z.iso.datetime({ error: 'Must be an ISO date-time' }).optional(),
});
