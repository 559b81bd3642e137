import { signedHeaders, z } from 'atende/plugin';
import type { BotMessage } from '../integration.contract.js';
import { jsonOf, ServiceError } from './bot-http.js';
import type { BotActions, Exchange, IntegrationDriver } from './driver.js';

const id = z.number().int().positive();
/** What a flow may answer (docs/api.md, "Queue integrations"); an empty or non-JSON 2xx answer sends nothing. */
const answerSchema = z.object({
  reply: z.string().max(10_000).optional(),
  messages: z
    .array(z.union([z.object({ text: z.string().min(1).max(10_000) }), z.object({ mediaUrl: z.string().url(), caption: z.string().max(10_000).optional() })]))
    .max(20)
    .optional(),
  handoff: z.boolean().optional(),
  queueId: id.optional(),
  userId: id.optional(),
  close: z.boolean().optional(),
});

/**
 * n8n and webhook: POST the exchange's context as JSON, signed (signedHeaders); the answer's messages go to the
 * customer, so a flow no longer has to call the messages API back. A failed call is tried again
 * `attempts` times with a doubling delay before it counts as failed.
 */
export class WebhookDriver implements IntegrationDriver {
  constructor(private readonly retry: { attempts: number; delayMs: number }) {}

  async reply(exchange: Exchange): Promise<BotActions> {
    const body = JSON.stringify(exchange.context);
    let last: unknown;
    for (let attempt = 0; attempt < this.retry.attempts; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, this.retry.delayMs * 2 ** (attempt - 1)));
      // Signed as webhook deliveries are (docs/api.md): each attempt with its own timestamp.
      const headers = { ...signedHeaders(exchange.secrets.webhookSecret, body), 'x-atende-event': exchange.context.event };
      try {
        const answer = await exchange.http.post(exchange.integration.urlN8n, body, headers, exchange.signal);
        return actionsOf(answer.body.length === 0 || !answer.contentType.includes('json') ? {} : jsonOf(answer, exchange.integration.urlN8n));
      } catch (err) {
        last = err;
        // A refused request (4xx) or an unreadable answer will not change when tried again.
        if (!(err instanceof ServiceError) || !err.retryable || exchange.signal.aborted) break;
      }
    }
    throw last;
  }
}

function actionsOf(raw: unknown): BotActions {
  const parsed = answerSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ServiceError(`the answer's ${issue.path.join('.') || 'body'} is not valid: ${issue.message}`);
  }
  const answer = parsed.data;
  const messages: BotMessage[] = [...(answer.reply ? [{ text: answer.reply }] : []), ...(answer.messages ?? [])];
  const handsOff = answer.handoff === true || answer.queueId !== undefined || answer.userId !== undefined;
  return {
    messages,
    ...(handsOff && { handoff: { queueId: answer.queueId ?? null, userId: answer.userId ?? null } }),
    ...(answer.close && { close: true }),
  };
}
