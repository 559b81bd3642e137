import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

/** One audio-transcription request (multipart): its model and the file as received. */
export interface TranscriptionRequest {
  authorization: string | undefined;
  model: string;
  fileName: string;
  bytes: Buffer;
}

export interface FakeOpenAi {
  /** The base URL to give a prompt (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: ChatRequest[];
  /** Decides each answer from the request (default: echoes the last user message). */
  answer: (request: ChatRequest) => FakeAnswer;
  transcriptions: TranscriptionRequest[];
  /** Decides each transcription (default: a fixed sentence). */
  transcribe: (request: TranscriptionRequest) => FakeAnswer;
  close(): Promise<void>;
}

async function bytesOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The multipart form of a transcription request, read as the platform reads one. */
async function transcriptionOf(req: IncomingMessage, raw: Buffer): Promise<TranscriptionRequest> {
  const form = await new Request('http://fake/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: new Uint8Array(raw) }).formData();
  const file = form.get('file') as File;
  return { authorization: req.headers.authorization, model: String(form.get('model')), fileName: file.name, bytes: Buffer.from(await file.arrayBuffer()) };
}

/** The answer's text once its delay is over; null when it was an error (answered here) or the client went away meanwhile. */
async function answerText(res: ServerResponse, answer: FakeAnswer): Promise<string | null> {
  if ('status' in answer) {
    sendJson(res, answer.status, { error: { message: answer.error, type: 'server_error' } });
    return null;
  }
  if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
  return res.destroyed ? null : answer.text;
}

/** A small OpenAI-compatible server (POST /v1/chat/completions and /v1/audio/transcriptions) on a free local port, recording every request. */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake: FakeOpenAi = {
    baseUrl: '',
    requests: [],
    answer: (request) => ({ text: `Eco: ${request.body.messages.at(-1)?.content ?? ''}` }),
    transcriptions: [],
    transcribe: () => ({ text: 'Quero saber o horário de funcionamento' }),
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await bytesOf(req);
      if (req.method === 'POST' && req.url === '/v1/audio/transcriptions') {
        const request = await transcriptionOf(req, raw);
        fake.transcriptions.push(request);
        const text = await answerText(res, fake.transcribe(request));
        if (text !== null) sendJson(res, 200, { text });
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        sendJson(res, 404, { error: { message: 'not found' } });
        return;
      }
      const request: ChatRequest = { authorization: req.headers.authorization, body: JSON.parse(raw.toString('utf8')) };
      fake.requests.push(request);
      const text = await answerText(res, fake.answer(request));
      if (text === null) return;
      sendJson(res, 200, {
        id: `chatcmpl-${fake.requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: request.body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
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
