import type { Next } from 'koa';
import type { AppContext } from './context.js';

/** A client error the error middleware answers with its status and message (as the body parser's are). */
function clientError(status: number, message: string): Error {
  return Object.assign(new Error(message), { status, expose: true });
}

async function readBytes(ctx: AppContext, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw clientError(413, 'Request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The body as the JSON parser would give it: JSON, form fields or text, by content type. */
function parsed(ctx: AppContext, raw: Buffer): unknown {
  if (raw.length === 0) return {};
  const text = raw.toString('utf8');
  if (ctx.is('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw clientError(400, 'Invalid JSON body');
    }
  }
  if (ctx.is('urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  if (ctx.is('text/*')) return text;
  return {};
}

/**
 * Body parsing for routes that check a signature over the exact bytes sent (webhooks): the bytes
 * stay in `ctx.state.rawBody`, and `ctx.request.body` is parsed from them as usual.
 */
export function rawBodyParser(limitBytes: number) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    const raw = await readBytes(ctx, limitBytes);
    ctx.state.rawBody = raw;
    ctx.request.body = parsed(ctx, raw) as typeof ctx.request.body;
    await next();
  };
}
