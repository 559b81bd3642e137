import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A local HTTP server on a free port; `handle` answers each request. */
async function listen(handle: (req: IncomingMessage, res: ServerResponse, raw: string) => Promise<void> | void): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void (async () => handle(req, res, await bodyOf(req)))();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One call the webhook received, with whether its signature matched the secret it was told. */
export interface WebhookCall {
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the documented JSON, read by assertions
  signature: string | undefined;
  signed: boolean;
}

/** What the fake answers: a status and a JSON body (or raw text), optionally after `delayMs`. */
export interface WebhookAnswer {
  status?: number;
  body?: unknown;
  text?: string;
  delayMs?: number;
}

export interface FakeWebhook {
  /** The URL to give an integration (an n8n flow's webhook: `/webhook/<path>`). */
  url: string;
  /** Where its files are served (`${base}/files/x.png`). */
  base: string;
  /** The integration's key, once known: every call is checked against it (X-Atende-Signature). */
  secret: string;
  calls: WebhookCall[];
  answer: (call: WebhookCall) => WebhookAnswer;
  close(): Promise<void>;
}

/** A 1×1 PNG: the file a flow sends by URL. */
export const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * An n8n-like webhook flow: checks the HMAC over the raw body and answers as `answer` says. It
 * also serves `GET /files/<name>.png` (the pixel), the files its answers point to.
 */
export async function startFakeWebhook(): Promise<FakeWebhook> {
  const fake: FakeWebhook = { url: '', base: '', secret: '', calls: [], answer: () => ({ body: {} }), close: async () => undefined };
  const server = await listen(async (req, res, raw) => {
    if (req.method === 'GET' && /^\/files\/[\w-]+\.png$/.test(req.url ?? '')) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PIXEL_PNG.length) }).end(PIXEL_PNG);
      return;
    }
    if (req.method !== 'POST' || !req.url?.startsWith('/webhook/')) return json(res, 404, { message: 'not found' });
    const signature = req.headers['x-atende-signature'] as string | undefined;
    // As docs/api.md tells a receiver: HMAC-SHA256 of `<X-Atende-Timestamp>.<raw body>`.
    const timestamp = req.headers['x-atende-timestamp'] as string | undefined;
    const expected = `sha256=${createHmac('sha256', fake.secret).update(`${timestamp}.${raw}`).digest('hex')}`;
    const signed = Boolean(signature) && signature!.length === expected.length && timingSafeEqual(Buffer.from(signature!), Buffer.from(expected));
    const call: WebhookCall = { body: JSON.parse(raw), signature, signed };
    fake.calls.push(call);
    const answer = fake.answer(call);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    if (answer.text !== undefined) {
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain' }).end(answer.text);
      return;
    }
    json(res, answer.status ?? 200, answer.body ?? {});
  });
  fake.url = `${server.url}/webhook/atende`;
  fake.base = server.url;
  fake.close = server.close;
  return fake;
}

/** A bubble of a typebot v6 answer. */
export type TypebotBubble =
  | { id: string; type: 'text'; content: { type: 'richText'; richText: unknown[] } }
  | { id: string; type: 'image' | 'audio' | 'video'; content: { url: string } };

/** A plain paragraph of rich text, with optional marks per leaf. */
export function textBubble(...leaves: ({ text: string; bold?: boolean; italic?: boolean; strikethrough?: boolean } | string)[]): TypebotBubble {
  return {
    id: `b${Math.random().toString(36).slice(2, 8)}`,
    type: 'text',
    content: { type: 'richText', richText: [{ type: 'p', children: leaves.map((leaf) => (typeof leaf === 'string' ? { text: leaf } : leaf)) }] },
  };
}

/** One turn of a scripted flow: the bubbles and the input that follows. */
export interface TypebotStep {
  messages: TypebotBubble[];
  input?: { type: 'choice input'; items: string[] } | { type: 'text input' };
}

export interface TypebotRequest {
  path: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- startChat/continueChat bodies, read by assertions
}

export interface FakeTypebot {
  /** The typebot server's base URL (the integration's urlN8N). */
  url: string;
  slug: string;
  requests: TypebotRequest[];
  /** The flow: what startChat answers (`start`) and each continueChat (`reply(text, session)`). */
  start: (variables: Record<string, string>) => TypebotStep;
  reply: (text: string, session: { id: string; turns: number }) => TypebotStep;
  /** Sessions the server knows; removing one makes continueChat 404 as typebot does. */
  sessions: Map<string, { id: string; turns: number }>;
  /** A status every call answers with instead (a broken server), or null. */
  failWith: number | null;
  close(): Promise<void>;
}

/**
 * A typebot v6 chat API: POST /api/v1/typebots/{slug}/startChat answers `{ sessionId, resultId,
 * typebot, messages, input? }`; POST /api/v1/sessions/{id}/continueChat `{ messages, input? }`, 404
 * for a session it does not know. Inputs are `{ id, type, items: [{ id, content }] }` for choices.
 */
export async function startFakeTypebot(slug = 'atendimento'): Promise<FakeTypebot> {
  let sessionCount = 0;
  const fake: FakeTypebot = {
    url: '',
    slug,
    requests: [],
    start: () => ({ messages: [textBubble('Olá! Bem-vindo.')], input: { type: 'text input' } }),
    reply: (text) => ({ messages: [textBubble(`Você disse: ${text}`)], input: { type: 'text input' } }),
    sessions: new Map(),
    failWith: null,
    close: async () => undefined,
  };
  const inputOf = (step: TypebotStep) =>
    step.input &&
    (step.input.type === 'choice input'
      ? { id: 'in1', type: 'choice input', items: step.input.items.map((content, i) => ({ id: `i${i}`, outgoingEdgeId: `e${i}`, content })), options: {} }
      : { id: 'in1', type: 'text input', options: { labels: { placeholder: 'Digite sua resposta...' } } });
  const server = await listen((req, res, raw) => {
    const body = raw ? JSON.parse(raw) : {};
    const path = req.url ?? '';
    fake.requests.push({ path, body });
    if (fake.failWith) return json(res, fake.failWith, { message: 'Internal error', code: 'INTERNAL_SERVER_ERROR' });
    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(path);
    if (req.method === 'POST' && start) {
      if (start[1] !== fake.slug) return json(res, 404, { message: 'Typebot not found', code: 'NOT_FOUND' });
      sessionCount += 1;
      const session = { id: `sess-${sessionCount}`, turns: 0 };
      fake.sessions.set(session.id, session);
      const step = fake.start(body.prefilledVariables ?? {});
      return json(res, 200, { sessionId: session.id, resultId: `res-${sessionCount}`, typebot: { id: 'tb1', theme: {}, settings: {} }, messages: step.messages, input: inputOf(step) });
    }
    const next = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(path);
    if (req.method === 'POST' && next) {
      const session = fake.sessions.get(decodeURIComponent(next[1]!));
      if (!session) return json(res, 404, { message: 'Session not found.', code: 'NOT_FOUND' });
      session.turns += 1;
      const step = fake.reply(typeof body.message === 'string' ? body.message : (body.message?.text ?? ''), session);
      return json(res, 200, { messages: step.messages, input: inputOf(step) });
    }
    json(res, 404, { message: 'not found' });
  });
  fake.url = server.url;
  fake.close = server.close;
  return fake;
}
