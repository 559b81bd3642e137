import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One text-to-speech request the fake received (Azure Speech's REST shape). */
export interface SpeechRequest {
  key: string | undefined;
  format: string | undefined;
  contentType: string | undefined;
  ssml: string;
}

/** What the fake answers: audio bytes, or an HTTP error. */
export type SpeechAnswer = { audio: Buffer } | { status: number; error: string };

export interface FakeSpeech {
  /** The full endpoint URL to give a prompt. */
  url: string;
  requests: SpeechRequest[];
  answer: (request: SpeechRequest) => SpeechAnswer;
  close(): Promise<void>;
}

/** Bytes that start as an Ogg page does; the simulator only stores and hashes them. */
export function fakeOgg(text: string): Buffer {
  return Buffer.concat([Buffer.from('OggS\0'), Buffer.from(text)]);
}

async function textOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A small speech server (POST /cognitiveservices/v1: SSML in, audio out) on a free local port. */
export async function startFakeSpeech(): Promise<FakeSpeech> {
  const fake: FakeSpeech = {
    url: '',
    requests: [],
    answer: (request) => ({ audio: fakeOgg(request.ssml) }),
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const ssml = await textOf(req);
      if (req.method !== 'POST' || req.url !== '/cognitiveservices/v1') {
        res.writeHead(404).end();
        return;
      }
      const request: SpeechRequest = {
        key: req.headers['ocp-apim-subscription-key'] as string | undefined,
        format: req.headers['x-microsoft-outputformat'] as string | undefined,
        contentType: req.headers['content-type'],
        ssml,
      };
      fake.requests.push(request);
      const answer = fake.answer(request);
      if ('status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.error);
        return;
      }
      res.writeHead(200, { 'content-type': 'audio/ogg' }).end(answer.audio);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cognitiveservices/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
