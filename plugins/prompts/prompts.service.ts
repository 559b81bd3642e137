import { ErrorCode, ForbiddenError, isAdmin, NotFoundError, type AuthUser, type PluginApp } from 'atende/plugin';
import { PROMPT_DEFAULTS, type PromptDeleted, type PromptEvent, type PromptList, type PromptView } from './prompt.contract.js';
import { Prompt } from './prompt.model.js';
import type { CreatePromptInput, UpdatePromptInput } from './prompts.schema.js';

type QueueRef = PromptView['queue'];

/** How a stored key is shown: its last four characters behind a mask, or '' when there is none. */
export function maskSecret(plain: string): string {
  if (!plain) return '';
  return `••••${plain.length > 8 ? plain.slice(-4) : ''}`;
}

const isMasked = (value: string) => value.startsWith('••••');

function notFound(): NotFoundError {
  return new NotFoundError(ErrorCode.ERR_NO_PROMPT_FOUND);
}

/**
 * AI prompts of a company (spec: Prompt entity, Prompts page). Every user reads them (the queue
 * and connection selects); admins write them. Keys are sealed with the plugin's key and only shown
 * masked; a base URL passes the product's outgoing-URL check when saved and again when called.
 */
export class PromptsService {
  constructor(private readonly app: PluginApp) {}

  async list(actor: AuthUser): Promise<PromptList> {
    const rows = await Prompt.query(this.app.db).where('companyId', actor.companyId).orderBy('name').orderBy('id');
    const queues = new Map((await this.app.services.queues.list(actor)).map((q) => [q.id, { id: q.id, name: q.name, color: q.color }]));
    return { prompts: rows.map((row) => this.view(row, row.queueId === null ? null : (queues.get(row.queueId) ?? null))) };
  }

  async show(actor: AuthUser, id: number): Promise<PromptView> {
    return this.viewOf(await this.find(actor.companyId, id));
  }

  async create(actor: AuthUser, input: CreatePromptInput): Promise<PromptView> {
    this.assertAdmin(actor);
    await this.app.services.queues.find(actor.companyId, input.queueId, this.app.db);
    await this.app.outgoing.checkUrl(input.baseUrl);
    if (input.voiceEndpoint) await this.app.outgoing.checkUrl(input.voiceEndpoint);
    const row = await Prompt.query(this.app.db).insertAndFetch({
      companyId: actor.companyId,
      name: input.name,
      prompt: input.prompt,
      baseUrl: input.baseUrl,
      model: input.model,
      apiKey: this.app.secrets.seal(input.apiKey),
      voice: input.voice,
      voiceKey: this.app.secrets.seal(input.voiceKey),
      voiceRegion: input.voiceRegion,
      voiceEndpoint: input.voiceEndpoint,
      transcriptionModel: input.transcriptionModel,
      maxTokens: input.maxTokens,
      temperature: input.temperature,
      maxMessages: input.maxMessages,
      queueId: input.queueId,
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      lastError: null,
      lastErrorAt: null,
    });
    return this.announce('create', row);
  }

  async update(actor: AuthUser, id: number, input: UpdatePromptInput): Promise<PromptView> {
    this.assertAdmin(actor);
    const current = await this.find(actor.companyId, id);
    if (input.queueId !== undefined) await this.app.services.queues.find(actor.companyId, input.queueId, this.app.db);
    if (input.baseUrl !== undefined) await this.app.outgoing.checkUrl(input.baseUrl);
    if (input.voiceEndpoint) await this.app.outgoing.checkUrl(input.voiceEndpoint);
    const { apiKey, voiceKey, queueId, ...fields } = input;
    // A key left as the mask the page was shown is the stored one.
    const sealed = (value: string | undefined) => (value === undefined || isMasked(value) ? undefined : this.app.secrets.seal(value));
    const patch = {
      ...fields,
      ...(queueId !== undefined && { queueId }),
      ...(sealed(apiKey) !== undefined && { apiKey: sealed(apiKey) }),
      ...(sealed(voiceKey) !== undefined && { voiceKey: sealed(voiceKey) }),
    };
    const row = await current.$query(this.app.db).patchAndFetch(patch);
    return this.announce('update', row);
  }

  async remove(actor: AuthUser, id: number): Promise<PromptDeleted> {
    this.assertAdmin(actor);
    const current = await this.find(actor.companyId, id);
    await Prompt.query(this.app.db).deleteById(current.id);
    this.publish(actor.companyId, { action: 'delete', promptId: id });
    return { message: 'Prompt deleted' };
  }

  // ---- for the bot ------------------------------------------------------------------------------

  /** A prompt of the company, or undefined (a link to a deleted or foreign prompt runs nothing). */
  async forBot(companyId: number, id: number): Promise<Prompt | undefined> {
    return Prompt.query(this.app.db).findOne({ companyId, id });
  }

  /** The stored AI server key in plain text ('' when none or unreadable: the server then refuses the call). */
  key(prompt: Prompt): string {
    return this.opened(prompt, prompt.apiKey);
  }

  /** The stored speech service key in plain text, as `key`. */
  voiceKey(prompt: Prompt): string {
    return this.opened(prompt, prompt.voiceKey);
  }

  /** A call answered: its tokens added to the prompt's counters, its last error cleared. */
  async used(prompt: Prompt, usage: { promptTokens: number; completionTokens: number; totalTokens: number }): Promise<void> {
    await Prompt.query(this.app.db)
      .findById(prompt.id)
      .patch({
        promptTokens: Prompt.raw('?? + ?', ['prompt_tokens', usage.promptTokens]),
        completionTokens: Prompt.raw('?? + ?', ['completion_tokens', usage.completionTokens]),
        totalTokens: Prompt.raw('?? + ?', ['total_tokens', usage.totalTokens]),
        lastError: null,
        lastErrorAt: null,
      } as never);
    await this.announce('update', (await Prompt.query(this.app.db).findById(prompt.id))!);
  }

  /** A call failed: the reason kept on the prompt for its admins. */
  async failed(prompt: Prompt, reason: string): Promise<void> {
    const row = await Prompt.query(this.app.db).patchAndFetchById(prompt.id, { lastError: reason.slice(0, 1000), lastErrorAt: new Date().toISOString() });
    if (row) await this.announce('update', row);
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private opened(prompt: Prompt, sealed: string): string {
    try {
      return sealed ? this.app.secrets.open(sealed) : '';
    } catch (err) {
      this.app.log.warn({ err, promptId: prompt.id }, 'prompt key unreadable: the config secret changed; enter the key again');
      return '';
    }
  }

  private assertAdmin(actor: AuthUser): void {
    if (!isAdmin(actor)) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION);
  }

  private async find(companyId: number, id: number): Promise<Prompt> {
    const row = await Prompt.query(this.app.db).findOne({ companyId, id });
    if (!row) throw notFound();
    return row;
  }

  private async viewOf(row: Prompt): Promise<PromptView> {
    let queue: QueueRef = null;
    if (row.queueId !== null) {
      const found = await this.app.services.queues.find(row.companyId, row.queueId, this.app.db).catch(() => undefined);
      if (found) queue = { id: found.id, name: found.name, color: found.color };
    }
    return this.view(row, queue);
  }

  private view(row: Prompt, queue: QueueRef): PromptView {
    const open = (sealed: string) => {
      try {
        return sealed ? this.app.secrets.open(sealed) : '';
      } catch {
        return '';
      }
    };
    return {
      id: row.id,
      companyId: row.companyId,
      name: row.name,
      prompt: row.prompt,
      baseUrl: row.baseUrl || PROMPT_DEFAULTS.baseUrl,
      model: row.model,
      apiKey: maskSecret(open(row.apiKey)),
      voice: row.voice,
      voiceKey: maskSecret(open(row.voiceKey)),
      voiceRegion: row.voiceRegion,
      voiceEndpoint: row.voiceEndpoint,
      transcriptionModel: row.transcriptionModel,
      maxTokens: row.maxTokens,
      temperature: Number(row.temperature),
      maxMessages: row.maxMessages,
      queueId: row.queueId,
      queue,
      promptTokens: Number(row.promptTokens),
      completionTokens: Number(row.completionTokens),
      totalTokens: Number(row.totalTokens),
      lastError: row.lastError,
      lastErrorAt: row.lastErrorAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  private async announce(action: 'create' | 'update', row: Prompt): Promise<PromptView> {
    const prompt = await this.viewOf(row);
    this.publish(row.companyId, { action, prompt });
    return prompt;
  }

  private publish(companyId: number, event: PromptEvent): void {
    this.app.realtime.publish(companyId, `company-${companyId}-prompt`, event);
  }
}
