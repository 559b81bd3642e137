import { createHash, randomUUID } from 'node:crypto';
import type { JWT, JWTOptions } from 'google-auth-library';
import { AppError, z } from 'atende/plugin';
import type { BotMessage } from '../integration.contract.js';
import { jsonOf, ServiceError, type BotHttp } from './bot-http.js';
import type { BotActions, Exchange, IntegrationDriver } from './driver.js';

/** Google's token endpoint, for a key that names none. */
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const SCOPE = 'https://www.googleapis.com/auth/dialogflow';
/** Service-account clients kept (each caches its access token until it expires). */
const CLIENTS_KEPT = 200;

/** The fields of a service-account key file (jsonContent) that authentication reads. */
const serviceAccountSchema = z.object({
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  token_uri: z.string().url().optional(),
  project_id: z.string().optional(),
});
type ServiceAccount = z.infer<typeof serviceAccountSchema>;

/** What detectIntent answers that the bot uses (Dialogflow ES v2 DetectIntentResponse). */
const detectIntentSchema = z.object({
  queryResult: z
    .object({
      fulfillmentText: z.string().optional(),
      fulfillmentMessages: z.array(z.object({ platform: z.string().optional(), text: z.object({ text: z.array(z.string()).optional() }).optional() })).optional(),
      intent: z.object({ displayName: z.string().optional(), endInteraction: z.boolean().optional() }).optional(),
      diagnosticInfo: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});
type QueryResult = NonNullable<z.infer<typeof detectIntentSchema>['queryResult']>;

function serviceAccountOf(jsonContent: string): ServiceAccount {
  let raw: unknown;
  try {
    raw = JSON.parse(jsonContent);
  } catch {
    throw new ServiceError('the service-account JSON is not valid JSON');
  }
  const parsed = serviceAccountSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ServiceError(`the service-account JSON's ${issue.path.join('.') || 'content'} is missing or not valid`);
  }
  return parsed.data;
}

/** The texts for the customer: the default platform's text messages, else the fulfillment text. */
function messagesOf(result: QueryResult): BotMessage[] {
  const texts = (result.fulfillmentMessages ?? [])
    .filter((m) => !m.platform || m.platform === 'PLATFORM_UNSPECIFIED')
    .flatMap((m) => m.text?.text ?? [])
    .map((t) => t.trim())
    .filter(Boolean);
  if (texts.length === 0 && result.fulfillmentText?.trim()) texts.push(result.fulfillmentText.trim());
  return texts.map((text) => ({ text }));
}

/** An intent marked "end of conversation" (ES: intent.endInteraction; the diagnostic flag of some agents). */
function ends(result: QueryResult): boolean {
  return result.intent?.endInteraction === true || result.diagnosticInfo?.end_conversation === true;
}

/**
 * Dialogflow ES: each customer text goes to detectIntent (REST v2) in the ticket's Dialogflow
 * session, in the integration's language, authorized by its service-account key through Google's
 * auth library (it signs the key's assertion and caches the access token). The token request goes
 * to the key's token_uri and, like detectIntent, through the product's outgoing calls (URL check,
 * time and size limits). The fulfillment texts go to the customer; an end-of-conversation intent
 * hands the ticket to a person.
 */
export class DialogflowDriver implements IntegrationDriver {
  private readonly clients = new Map<string, JWT>();

  /** `baseUrl`: Dialogflow's API root (pluginConfig.integrations.dialogflowUrl). */
  constructor(private readonly baseUrl: string) {}

  async reply(exchange: Exchange): Promise<BotActions> {
    const { integration, context, http, signal } = exchange;
    const text = context.message.body.trim();
    // Dialogflow reads text only: anything else goes to a person.
    if (!text) return { messages: [], handoff: {} };
    if (!exchange.secrets.jsonContent) throw new ServiceError('the integration has no service-account JSON');
    const key = serviceAccountOf(exchange.secrets.jsonContent);
    const project = integration.projectName.trim() || key.project_id;
    if (!project) throw new ServiceError('the integration has no project name (nor a project_id in its JSON)');

    const token = await this.accessToken(key, exchange.secrets.jsonContent, http);
    const session = exchange.sessionId ?? randomUUID();
    const url = `${this.baseUrl.replace(/\/$/, '')}/v2/projects/${encodeURIComponent(project)}/agent/sessions/${encodeURIComponent(session)}:detectIntent`;
    // detectIntent refuses a text over 256 characters: a longer message is read by its start.
    const body = JSON.stringify({ queryInput: { text: { text: text.slice(0, 256), languageCode: integration.language } } });
    const answer = await http.post(url, body, { authorization: `Bearer ${token}` }, signal);
    const parsed = detectIntentSchema.safeParse(jsonOf(answer, 'Dialogflow'));
    if (!parsed.success || !parsed.data.queryResult) throw new ServiceError('Dialogflow answered without a queryResult');
    const result = parsed.data.queryResult;
    return { messages: messagesOf(result), sessionId: session, ...(ends(result) && { handoff: {} }) };
  }

  /** An access token for the key: its client, kept per key, asks the key's token endpoint once it has none or it expired. */
  private async accessToken(key: ServiceAccount, jsonContent: string, http: BotHttp): Promise<string> {
    const id = createHash('sha256').update(jsonContent).digest('hex');
    let client = this.clients.get(id);
    if (!client) {
      // The library is loaded by the first Dialogflow call, not by every server start.
      const { JWT: JwtClient } = await import('google-auth-library');
      client = new JwtClient({
        email: key.client_email,
        key: key.private_key,
        scopes: [SCOPE],
        transporter: tokenTransport(key.token_uri ?? GOOGLE_TOKEN_URI, http),
        // No interceptors on that transport: it sends one form, as it is.
        useAuthRequestParameters: false,
      });
      this.clients.set(id, client);
      if (this.clients.size > CLIENTS_KEPT) this.clients.delete(this.clients.keys().next().value!);
    }
    try {
      const { token } = await client.getAccessToken();
      if (!token) throw new ServiceError('the token endpoint answered no access token');
      return token;
    } catch (err) {
      // A token URL the server may not call is refused as when saving (400), not as the service's failure.
      if (err instanceof AppError) throw err;
      if (err instanceof ServiceError) throw new ServiceError(`authentication failed: ${err.message}`, err.retryable, err.status);
      throw new ServiceError(`authentication failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/**
 * The auth library's transport for its token request (a form POST with the signed assertion),
 * sent to the key's token_uri through the product's outgoing calls rather than straight to Google.
 */
function tokenTransport(tokenUri: string, http: BotHttp): JWTOptions['transporter'] {
  const transport = {
    async request(options: { data?: unknown }) {
      const form = options.data instanceof URLSearchParams ? options.data.toString() : String(options.data ?? '');
      const answer = await http.post(tokenUri, form, { 'content-type': 'application/x-www-form-urlencoded' });
      return { data: jsonOf(answer, 'the token endpoint'), status: answer.status };
    },
  };
  // The library calls only request() on it for tokens, and this client makes no other calls.
  return transport as unknown as JWTOptions['transporter'];
}
