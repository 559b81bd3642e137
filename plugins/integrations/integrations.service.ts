import { randomBytes } from 'node:crypto';
import { ErrorCode, ForbiddenError, isAdmin, likePattern, NotFoundError, validate, type AuthUser, type PluginApp } from 'atende/plugin';
import type { IntegrationDeleted, IntegrationEvent, IntegrationList, IntegrationView } from './integration.contract.js';
import type { CreateIntegrationInput, IntegrationFields, UpdateIntegrationInput } from './integrations.schema.js';
import { typeRulesSchema } from './integrations.schema.js';
import { QueueIntegration } from './queue-integration.model.js';

/** Page size of GET /queueIntegration. */
export const INTEGRATIONS_PAGE_SIZE = 20;

const MASK = '••••';
const isMasked = (value: string) => value.startsWith(MASK);

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('hex')}`;
}

/** The API's field names for the model's columns (urlN8N is stored as url_n8n). */
function columnsOf(input: IntegrationFields): Partial<QueueIntegration> {
  const { urlN8N, jsonContent: _json, ...rest } = input;
  return { ...rest, ...(urlN8N !== undefined && { urlN8n: urlN8N }) };
}

/**
 * Queue integrations of a company (spec: QueueIntegration, /queue-integration). Every user reads
 * them (the queue and connection selects); admins write them. Secrets (dialogflow's JSON, the
 * webhook key) are sealed with the plugin's key; URLs pass the product's outgoing-URL check when
 * saved and again when called.
 */
export class IntegrationsService {
  constructor(private readonly app: PluginApp) {}

  async list(actor: AuthUser, query: { searchParam: string; pageNumber: number }): Promise<IntegrationList> {
    const q = QueueIntegration.query(this.app.db).where('companyId', actor.companyId);
    if (query.searchParam) q.whereRaw("lower(??) like ? escape '!'", ['name', likePattern(query.searchParam.toLowerCase())]);
    const count = Number((await q.clone().count('id as n').first() as unknown as { n: number | string }).n);
    const rows = await q.orderBy('name').orderBy('id').limit(INTEGRATIONS_PAGE_SIZE + 1).offset((query.pageNumber - 1) * INTEGRATIONS_PAGE_SIZE);
    return { queueIntegrations: rows.slice(0, INTEGRATIONS_PAGE_SIZE).map((row) => this.view(row)), hasMore: rows.length > INTEGRATIONS_PAGE_SIZE, count };
  }

  async show(actor: AuthUser, id: number): Promise<IntegrationView> {
    return this.view(await this.find(actor.companyId, id));
  }

  async create(actor: AuthUser, input: CreateIntegrationInput): Promise<IntegrationView> {
    this.assertAdmin(actor);
    if (input.urlN8N) await this.app.outgoing.checkUrl(input.urlN8N);
    const secret = newWebhookSecret();
    const row = await QueueIntegration.query(this.app.db).insertAndFetch({
      ...(columnsOf(input) as QueueIntegration),
      companyId: actor.companyId,
      jsonContent: this.sealed(input.jsonContent),
      webhookSecret: this.app.secrets.seal(secret),
      lastError: null,
      lastErrorAt: null,
    });
    // The one answer that shows the key in full; the live frame and every read mask it.
    this.publish(row.companyId, { action: 'create', queueIntegration: this.view(row) });
    return { ...this.view(row), webhookSecret: secret };
  }

  async update(actor: AuthUser, id: number, input: UpdateIntegrationInput): Promise<IntegrationView> {
    this.assertAdmin(actor);
    const current = await this.find(actor.companyId, id);
    const { newWebhookSecret: renew, jsonContent, ...fields } = input;
    validate(typeRulesSchema, { ...this.fieldsOf(current), ...fields });
    if (fields.urlN8N) await this.app.outgoing.checkUrl(fields.urlN8N);
    const secret = renew ? newWebhookSecret() : undefined;
    const row = await current.$query(this.app.db).patchAndFetch({
      ...columnsOf(fields),
      // A JSON left as the mask the page was shown is the stored one.
      ...(jsonContent !== undefined && !isMasked(jsonContent) && { jsonContent: this.sealed(jsonContent) }),
      ...(secret && { webhookSecret: this.app.secrets.seal(secret) }),
    });
    this.publish(row.companyId, { action: 'update', queueIntegration: this.view(row) });
    return { ...this.view(row), ...(secret && { webhookSecret: secret }) };
  }

  async remove(actor: AuthUser, id: number): Promise<IntegrationDeleted> {
    this.assertAdmin(actor);
    const current = await this.find(actor.companyId, id);
    await QueueIntegration.query(this.app.db).deleteById(current.id);
    this.publish(actor.companyId, { action: 'delete', queueIntegrationId: id });
    return { message: 'Integration deleted' };
  }

  /** An integration of the company for the test button (admins): 404 as any read. */
  async forTest(actor: AuthUser, id: number): Promise<QueueIntegration> {
    this.assertAdmin(actor);
    return this.find(actor.companyId, id);
  }

  /** The model's fields in the API's names, secrets still sealed: the base of a test from the dialog's values. */
  fieldsOf(row: QueueIntegration): IntegrationFields {
    const { type, name, projectName, language, typebotSlug, typebotExpires, typebotKeywordFinish, typebotKeywordRestart, typebotUnknownMessage, typebotDelayMessage, typebotRestartMessage } = row;
    return { type, name, projectName, language: language as IntegrationFields['language'], urlN8N: row.urlN8n, typebotSlug, typebotExpires, typebotKeywordFinish, typebotKeywordRestart, typebotUnknownMessage, typebotDelayMessage, typebotRestartMessage };
  }

  // ---- for the bot ------------------------------------------------------------------------------

  /** An integration of the company, or undefined (a link to a deleted or foreign one runs nothing). */
  async forBot(companyId: number, id: number): Promise<QueueIntegration | undefined> {
    return QueueIntegration.query(this.app.db).findOne({ companyId, id });
  }

  /** The sealed secrets in plain text ('' when unreadable: the config's secret changed). */
  secretsOf(row: QueueIntegration): { webhookSecret: string; jsonContent: string } {
    return { webhookSecret: this.open(row.webhookSecret, row.id), jsonContent: this.open(row.jsonContent, row.id) };
  }

  /** An exchange answered: the last error cleared. */
  async succeeded(row: QueueIntegration): Promise<void> {
    if (row.lastError === null) return;
    await this.record(row.id, { lastError: null, lastErrorAt: null });
  }

  /** An exchange failed: the reason kept on the integration for its admins. */
  async failed(row: QueueIntegration, reason: string): Promise<void> {
    await this.record(row.id, { lastError: reason.slice(0, 1000), lastErrorAt: new Date().toISOString() });
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private async record(id: number, patch: Pick<QueueIntegration, 'lastError' | 'lastErrorAt'>): Promise<void> {
    const row = await QueueIntegration.query(this.app.db).patchAndFetchById(id, patch);
    if (row) this.publish(row.companyId, { action: 'update', queueIntegration: this.view(row) });
  }

  /** '' stays '' (nothing stored), so a read can tell an empty secret from a set one. */
  private sealed(plain: string): string {
    return plain ? this.app.secrets.seal(plain) : '';
  }

  private open(sealed: string, id: number): string {
    try {
      return sealed ? this.app.secrets.open(sealed) : '';
    } catch (err) {
      this.app.log.warn({ err, integrationId: id }, 'integration secret unreadable: the config secret changed; enter it again');
      return '';
    }
  }

  private assertAdmin(actor: AuthUser): void {
    if (!isAdmin(actor)) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION);
  }

  private async find(companyId: number, id: number): Promise<QueueIntegration> {
    const row = await QueueIntegration.query(this.app.db).findOne({ companyId, id });
    if (!row) throw new NotFoundError(ErrorCode.ERR_NO_INTEGRATION_FOUND);
    return row;
  }

  view(row: QueueIntegration): IntegrationView {
    return {
      id: row.id,
      companyId: row.companyId,
      type: row.type,
      name: row.name,
      projectName: row.projectName,
      jsonContent: row.jsonContent ? MASK : '',
      language: row.language,
      urlN8N: row.urlN8n,
      typebotSlug: row.typebotSlug,
      typebotExpires: row.typebotExpires,
      typebotKeywordFinish: row.typebotKeywordFinish,
      typebotKeywordRestart: row.typebotKeywordRestart,
      typebotUnknownMessage: row.typebotUnknownMessage,
      typebotDelayMessage: row.typebotDelayMessage,
      typebotRestartMessage: row.typebotRestartMessage,
      webhookSecret: MASK,
      lastError: row.lastError,
      lastErrorAt: row.lastErrorAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  private publish(companyId: number, event: IntegrationEvent): void {
    this.app.realtime.publish(companyId, `company-${companyId}-queueIntegration`, event);
  }
}
