import { randomBytes } from 'node:crypto';
import { AppError, validate, type AuthUser, type PluginApp } from 'atende/plugin';
import type { BotHttp } from './drivers/bot-http.js';
import type { IntegrationDriver } from './drivers/driver.js';
import type { IntegrationType, TestSessionResult } from './integration.contract.js';
import { createIntegrationSchema, type TestSessionInput } from './integrations.schema.js';
import type { IntegrationsService } from './integrations.service.js';
import { QueueIntegration } from './queue-integration.model.js';

/** What the test button sends as the customer's message, from a sample contact. */
const SAMPLE = { body: 'Olá', contact: { id: 0, name: 'Cliente de teste', number: '5500000000000' } };

/**
 * POST /queueIntegration/testSession: one real exchange with the service, from the dialog's values
 * (a stored integration's `id` fills in what the dialog did not send, secrets included), in a new
 * session of a sample contact. Answers the messages the customer would get, or the service's error;
 * a URL the server may not call and a type not available are 400s, as when saving.
 */
export class TestSession {
  constructor(
    private readonly app: PluginApp,
    private readonly integrations: IntegrationsService,
    private readonly drivers: Record<IntegrationType, IntegrationDriver>,
    private readonly http: BotHttp,
  ) {}

  async run(actor: AuthUser, input: TestSessionInput): Promise<TestSessionResult> {
    const { id, ...values } = input;
    const stored = id === undefined ? undefined : await this.integrations.forTest(actor, id);
    const fields = validate(createIntegrationSchema, { ...(stored && this.integrations.fieldsOf(stored)), ...values, name: values.name ?? stored?.name ?? 'Teste' });
    if (fields.urlN8N) await this.app.outgoing.checkUrl(fields.urlN8N);
    const storedSecrets = stored && this.integrations.secretsOf(stored);
    const integration = QueueIntegration.fromJson({ ...fields, urlN8n: fields.urlN8N, id: stored?.id ?? 0, companyId: actor.companyId }, { skipValidation: true });
    const company = await this.app.services.companies.get(actor.companyId);
    const now = new Date().toISOString();
    try {
      const actions = await this.drivers[fields.type].reply({
        integration,
        secrets: {
          // An unsaved integration has no key yet: its test is signed with a throwaway one.
          webhookSecret: storedSecrets?.webhookSecret || randomBytes(24).toString('hex'),
          jsonContent: fields.jsonContent && !fields.jsonContent.startsWith('••••') ? fields.jsonContent : (storedSecrets?.jsonContent ?? ''),
        },
        context: {
          event: 'test',
          company: { id: company.id, name: company.name },
          connection: { id: 0, name: '' },
          ticket: { id: 0, uuid: '', status: 'pending', queueId: null },
          contact: SAMPLE.contact,
          message: { id: 0, body: SAMPLE.body, type: 'text', mediaName: null, fromMe: false, timestamp: now },
        },
        sessionId: null,
        lastActivityAt: null,
        http: this.http,
        signal: AbortSignal.timeout(60_000),
      });
      return { ok: true, messages: actions.messages, handoff: Boolean(actions.handoff) };
    } catch (err) {
      if (err instanceof AppError) throw err;
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }
}
