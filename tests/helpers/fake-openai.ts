import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat-completions request the fake server received. */
export interface ChatRequest {
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
    max_tokens?: number;
    temperature?: number;
  };
}

/** What the fake answers: a reply text, an HTTP error, or a reply given only after `delayMs`. */
export type FakeAnswer = { text: string; delayMs?: number } | { status: number; error: string };

export interface FakeOpenAi {
  /** The base URL to give a prompt (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: ChatRequest[];
  /** Decides each answer from the request (default: echoes the last user message). */
  answer: (request: ChatRequest) => FakeAnswer;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A small OpenAI-compatible server (POST /v1/chat/completions) on a free local port, recording every request. */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake: FakeOpenAi = {
    baseUrl: '',
    requests: [],
    answer: (request) => ({ text: `Eco: ${request.body.messages.at(-1)?.content ?? ''}` }),
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await bodyOf(req);
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const request: ChatRequest = { authorization: req.headers.authorization, body: JSON.parse(raw) };
      fake.requests.push(request);
      const answer = fake.answer(request);
      if ('status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: answer.error, type: 'server_error' } }));
        return;
      }
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${fake.requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: request.body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: answer.text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
