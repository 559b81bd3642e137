import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One detectIntent request, after its bearer token was checked. */
export interface DetectIntentRequest {
  project: string;
  session: string;
  text: string;
  languageCode: string;
}

/** What the fake answers: Dialogflow's queryResult, or an HTTP error. */
export type DetectIntentAnswer = { queryResult: Record<string, unknown> } | { status: number; error: string };

/** One token request: the assertion's claims, and whether its signature checked out with the key's public half. */
export interface TokenRequest {
  grantType: string;
  signedByKey: boolean;
  claims: { iss?: string; scope?: string; aud?: string; exp?: number; iat?: number };
}

export interface FakeDialogflow {
  /** Dialogflow's API root to configure (pluginConfig.integrations.dialogflowUrl). */
  url: string;
  /** The OAuth token endpoint to put in a key's token_uri. */
  tokenUri: string;
  tokens: TokenRequest[];
  requests: DetectIntentRequest[];
  /** Decides each answer (default: echoes the text as one fulfillment message). */
  answer: (request: DetectIntentRequest) => DetectIntentAnswer;
  close(): Promise<void>;
}

/** A service-account key file (RSA key made here) whose token_uri is `tokenUri`, and its public half. */
export function serviceAccount(tokenUri: string, project = 'loja-agente'): { json: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const json = JSON.stringify({
    type: 'service_account',
    project_id: project,
    private_key_id: 'test-key',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    client_email: `atende@${project}.iam.gserviceaccount.com`,
    client_id: '1234567890',
    token_uri: tokenUri,
  });
  return { json, publicKey };
}

async function textOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const DETECT_INTENT = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/;

/**
 * A small Dialogflow ES (REST v2 detectIntent) with its OAuth token endpoint, on a free local port.
 * A token is issued only for an RS256 assertion signed by one of the `keys` given; detectIntent
 * answers only a token it issued.
 */
export async function startFakeDialogflow(keys: () => KeyObject[]): Promise<FakeDialogflow> {
  const issued = new Set<string>();
  const fake: FakeDialogflow = {
    url: '',
    tokenUri: '',
    tokens: [],
    requests: [],
    answer: (request) => ({ queryResult: { fulfillmentMessages: [{ text: { text: [`Dialogflow: ${request.text}`] } }], intent: { displayName: 'eco' } } }),
    close: async () => undefined,
  };
  const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await textOf(req);
      if (req.method === 'POST' && req.url === '/token') {
        const form = new URLSearchParams(raw);
        const assertion = form.get('assertion') ?? '';
        const [header = '', payload = '', signature = ''] = assertion.split('.');
        const signed = Buffer.from(`${header}.${payload}`);
        const signedByKey = keys().some((key) => verify('RSA-SHA256', signed, key, Buffer.from(signature, 'base64url')));
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8') || '{}') as TokenRequest['claims'];
        fake.tokens.push({ grantType: form.get('grant_type') ?? '', signedByKey, claims });
        if (!signedByKey) return json(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
        const token = `ya29.fake-${fake.tokens.length}`;
        issued.add(token);
        return json(res, 200, { access_token: token, expires_in: 3600, token_type: 'Bearer' });
      }
      const route = req.method === 'POST' ? DETECT_INTENT.exec(req.url ?? '') : null;
      if (!route) return json(res, 404, { error: { code: 404, message: 'not found' } });
      if (!issued.has((req.headers.authorization ?? '').replace(/^Bearer /, ''))) {
        return json(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
      }
      const body = JSON.parse(raw) as { queryInput: { text: { text: string; languageCode: string } } };
      const request: DetectIntentRequest = {
        project: decodeURIComponent(route[1]!),
        session: decodeURIComponent(route[2]!),
        text: body.queryInput.text.text,
        languageCode: body.queryInput.text.languageCode,
      };
      fake.requests.push(request);
      const answer = fake.answer(request);
      if ('status' in answer) return json(res, answer.status, { error: { code: answer.status, message: answer.error } });
      return json(res, 200, { responseId: `r-${fake.requests.length}`, queryResult: { queryText: request.text, languageCode: request.languageCode, ...answer.queryResult } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = origin;
  fake.tokenUri = `${origin}/token`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
