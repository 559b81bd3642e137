import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type objection from 'objection';
import type { Infrastructure } from '../../infrastructure.js';
import type { ConnectionStatus, WhatsappView } from '../../contract/views.js';
import { isAdmin, type AuthUser } from '../../auth/auth-user.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { ProviderRegistry } from '../../channels/providers.js';
import { uniqueOr } from '../../db/unique-violation.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { Company } from '../companies/company.model.js';
import type { PlansService } from '../plans/plans.service.js';
import { Queue } from '../queues/queue.model.js';
import { Whatsapp } from './whatsapp.model.js';
import type { CreateWhatsappBody, UpdateWhatsappBody } from './whatsapp.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { CacheSignals } from '../../cluster/cache-signals.js';

export type { WhatsappView };

const graphModifiers = {
  queueSummary: (qb: objection.QueryBuilder<Queue>) => qb.select('queues.id', 'queues.name', 'queues.color').orderBy('queues.name'),
};
const GRAPH = 'queues(queueSummary)';

function toView(row: Whatsapp, withToken: boolean, node: string | null): WhatsappView {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    provider: row.provider,
    status: row.status,
    qrcode: row.qrcode,
    retries: row.retries,
    number: row.number,
    node,
    isDefault: row.isDefault,
    greetingMessage: row.greetingMessage,
    complationMessage: row.complationMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    ratingMessage: row.ratingMessage,
    expiresInactiveMessage: row.expiresInactiveMessage,
    expiresTicket: row.expiresTicket,
    timeUseBotQueues: row.timeUseBotQueues,
    maxUseBotQueues: row.maxUseBotQueues,
    timeToTransfer: row.timeToTransfer,
    transferQueueId: row.transferQueueId,
    promptId: row.promptId,
    integrationId: row.integrationId,
    ...(withToken && { token: row.token ?? '' }),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    queues: (row.queues ?? []).map(({ id, name, color }) => ({ id, name, color })),
  };
}

/** The bearer of the external messages API: 32 random bytes, never typed by a person, never empty. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function nameTaken(): ConflictError {
  return new ConflictError(ErrorCode.ERR_WAPP_NAME_EXISTS, 'A connection with this name already exists');
}

function noOtherDefault(): ValidationError {
  return new ValidationError('There must be at least one default WhatsApp connection', undefined, ErrorCode.ERR_NO_OTHER_WHATSAPP);
}

function sameIds(a: number[], b: number[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
}

/**
 * A company's WhatsApp connections: their settings with the spec's rules (unique name, a greeting
 * when there is more than one queue, always one default, the plan's limit), their token, and the
 * session actions, which the session manager carries out.
 */
/** A connection named and nothing more (WhatsappService.summaries). */
export interface WhatsappSummary {
  id: number;
  name: string;
  status: ConnectionStatus;
  isDefault: boolean;
}

export class WhatsappService {
  constructor(
    private readonly infra: Infrastructure,
    private readonly plans: PlansService,
    private readonly sessions: SessionManager,
    private readonly providers: ProviderRegistry,
  ) {}

  /** GET /whatsapp: the company's connections by name, as a Portuguese reader sorts them. */
  async list(actor: AuthUser): Promise<WhatsappView[]> {
    const rows = await Whatsapp.query(this.infra.db).where('companyId', actor.companyId).withGraphFetched(GRAPH).modifiers(graphModifiers);
    rows.sort((x, y) => x.name.localeCompare(y.name, 'pt-BR') || x.id - y.id);
    const owners = await this.sessions.owners(rows.map((row) => row.id));
    return rows.map((row) => toView(row, isAdmin(actor), owners.get(row.id) ?? null));
  }

  /**
   * The company's connections as `{ id, name, status, isDefault }`, by name; only `ids` when given.
   * For plugins that name a connection without a user at hand (a campaign's view, its dispatch).
   */
  async summaries(companyId: number, ids?: readonly number[]): Promise<WhatsappSummary[]> {
    const q = Whatsapp.query(this.infra.db).where('companyId', companyId).select('id', 'name', 'status', 'isDefault').orderBy('name').orderBy('id');
    if (ids) q.whereIn('id', [...ids]);
    return (await q).map(({ id, name, status, isDefault }) => ({ id, name, status, isDefault }));
  }

  async show(actor: AuthUser, id: number): Promise<WhatsappView> {
    return this.view(await this.findScoped(actor, id), isAdmin(actor));
  }

  /** The company's first connection becomes its default; a new default takes the flag from the others. */
  async create(actor: AuthUser, input: CreateWhatsappBody): Promise<WhatsappView> {
    const companyId = actor.companyId;
    const provider = input.provider ?? 'baileys';
    this.assertProvider(provider);
    const queueIds = input.queueIds ?? [];
    const greetingMessage = input.greetingMessage ?? '';
    this.assertGreeting(queueIds, greetingMessage);

    const { row, demoted, claimed } = await this.infra.db.transaction(async (trx) => {
      await this.plans.assertWithinLimit(companyId, 'connections', trx);
      await this.assertNameFree(trx, companyId, input.name);
      await this.assertQueues(trx, companyId, queueIds, input.transferQueueId);
      const first = (await Whatsapp.query(trx).where('companyId', companyId).resultSize()) === 0;
      const isDefault = first || input.isDefault === true;
      const demoted = isDefault ? await this.takeDefault(trx, companyId) : [];
      const inserted = await uniqueOr(
        () =>
          Whatsapp.query(trx).insert({
            companyId,
            name: input.name,
            provider,
            status: 'OPENING',
            qrcode: '',
            retries: 0,
            number: '',
            isDefault,
            greetingMessage,
            complationMessage: input.complationMessage ?? '',
            outOfHoursMessage: input.outOfHoursMessage ?? '',
            ratingMessage: input.ratingMessage ?? '',
            expiresInactiveMessage: input.expiresInactiveMessage ?? '',
            expiresTicket: input.expiresTicket ?? 0,
            timeUseBotQueues: input.timeUseBotQueues ?? 0,
            maxUseBotQueues: input.maxUseBotQueues ?? 3,
            timeToTransfer: input.timeToTransfer ?? null,
            transferQueueId: input.transferQueueId ?? null,
            promptId: input.promptId ?? null,
            integrationId: input.integrationId ?? null,
            token: newToken(),
          }),
        nameTaken,
      );
      await this.replaceQueues(trx, inserted.id, queueIds);
      const claimed = await this.sessions.claim(trx, inserted.id);
      return { row: await this.load(trx, inserted.id), demoted, claimed };
    });

    claimed();
    await this.publishUpdates(companyId, [row.id, ...demoted]);
    await this.sessions.start(row.id);
    return this.view(row, true);
  }

  async update(actor: AuthUser, id: number, input: UpdateWhatsappBody): Promise<WhatsappView> {
    const current = await this.findScoped(actor, id);
    const companyId = current.companyId;
    if (input.provider !== undefined) this.assertProvider(input.provider);
    const currentQueueIds = (current.queues ?? []).map((q) => q.id);
    this.assertGreeting(input.queueIds ?? currentQueueIds, input.greetingMessage ?? current.greetingMessage);
    if (input.isDefault === false && current.isDefault) throw noOtherDefault();

    const demoted = await this.infra.db.transaction(async (trx) => {
      if (input.name !== undefined && input.name !== current.name) await this.assertNameFree(trx, companyId, input.name);
      await this.assertQueues(trx, companyId, input.queueIds ?? [], input.transferQueueId);
      const demoted = input.isDefault === true && !current.isDefault ? await this.takeDefault(trx, companyId) : [];
      await uniqueOr(
        () =>
          Whatsapp.query(trx)
            .findById(id)
            .patch({
              ...(input.name !== undefined && { name: input.name }),
              ...(input.provider !== undefined && { provider: input.provider }),
              ...(input.isDefault !== undefined && { isDefault: input.isDefault }),
              ...(input.greetingMessage !== undefined && { greetingMessage: input.greetingMessage }),
              ...(input.complationMessage !== undefined && { complationMessage: input.complationMessage }),
              ...(input.outOfHoursMessage !== undefined && { outOfHoursMessage: input.outOfHoursMessage }),
              ...(input.ratingMessage !== undefined && { ratingMessage: input.ratingMessage }),
              ...(input.expiresInactiveMessage !== undefined && { expiresInactiveMessage: input.expiresInactiveMessage }),
              ...(input.expiresTicket !== undefined && { expiresTicket: input.expiresTicket }),
              ...(input.timeUseBotQueues !== undefined && { timeUseBotQueues: input.timeUseBotQueues }),
              ...(input.maxUseBotQueues !== undefined && { maxUseBotQueues: input.maxUseBotQueues }),
              ...(input.timeToTransfer !== undefined && { timeToTransfer: input.timeToTransfer }),
              ...(input.transferQueueId !== undefined && { transferQueueId: input.transferQueueId }),
              ...(input.promptId !== undefined && { promptId: input.promptId }),
              ...(input.integrationId !== undefined && { integrationId: input.integrationId }),
            }),
        nameTaken,
      );
      if (input.queueIds && !sameIds(input.queueIds, currentQueueIds)) await this.replaceQueues(trx, id, input.queueIds);
      return demoted;
    });

    this.infra.cluster.signals.send(CacheSignals.botSetup, companyId);
    await this.publishUpdates(companyId, [id, ...demoted]);
    // Another provider means another driver: the session starts over with it.
    if (input.provider !== undefined && input.provider !== current.provider) await this.sessions.start(id);
    return this.view(await this.load(this.infra.db, id), true);
  }

  /** The default connection goes only when it is the last one; its session is logged out first. */
  async remove(actor: AuthUser, id: number): Promise<void> {
    const current = await this.findScoped(actor, id);
    if (current.isDefault) {
      const others = await Whatsapp.query(this.infra.db).where('companyId', current.companyId).whereNot('id', id).resultSize();
      if (others > 0) throw noOtherDefault();
    }
    await this.sessions.remove(id);
    await Whatsapp.query(this.infra.db).deleteById(id);
    this.infra.cluster.signals.send(CacheSignals.botSetup, current.companyId);
    this.infra.realtime.publish(current.companyId, `company-${current.companyId}-whatsapp`, { action: 'delete', whatsappId: id });
  }

  /** POST /whatsapp/:id/token: a new bearer; the old one stops working at once. */
  async regenerateToken(actor: AuthUser, id: number): Promise<WhatsappView> {
    const current = await this.findScoped(actor, id);
    await Whatsapp.query(this.infra.db).findById(id).patch({ token: newToken() });
    await this.publishUpdates(current.companyId, [id]);
    return this.view(await this.load(this.infra.db, id), true);
  }

  // ---- session actions (/whatsappsession/:id) ------------------------------------------------

  /** Start, or try again. */
  async startSession(actor: AuthUser, id: number): Promise<void> {
    await this.findScoped(actor, id);
    await this.assertNotBlocked(actor.companyId);
    await this.sessions.start(id);
  }

  /** Forget the stored credentials and start again: a new QR code. */
  async renewSession(actor: AuthUser, id: number): Promise<void> {
    await this.findScoped(actor, id);
    await this.assertNotBlocked(actor.companyId);
    await this.sessions.renew(id);
  }

  /** A company blocked for an unpaid invoice starts no session: it says so rather than staying silent. */
  private async assertNotBlocked(companyId: number): Promise<void> {
    const company = await Company.query(this.infra.db).findById(companyId).select('blockedAt');
    if (company?.blockedAt) {
      throw new AppError(ErrorCode.ERR_COMPANY_BLOCKED, 402, 'This company is blocked for an unpaid invoice: pay it on /financeiro to connect again');
    }
  }

  async logoutSession(actor: AuthUser, id: number): Promise<void> {
    await this.findScoped(actor, id);
    await this.sessions.logout(id);
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** One connection's view, with the node running its session. */
  private async view(row: Whatsapp, withToken: boolean): Promise<WhatsappView> {
    return toView(row, withToken, (await this.sessions.owners([row.id])).get(row.id) ?? null);
  }

  /** A connection of the caller's own company, with its queues; 404 otherwise. */
  private async findScoped(actor: AuthUser, id: number): Promise<Whatsapp> {
    const row = await Whatsapp.query(this.infra.db)
      .findById(id)
      .where('companyId', actor.companyId)
      .withGraphFetched(GRAPH)
      .modifiers(graphModifiers);
    if (!row) throw new NotFoundError(ErrorCode.ERR_NO_WAPP_FOUND);
    return row;
  }

  private async load(db: Knex, id: number): Promise<Whatsapp> {
    return Whatsapp.query(db).findById(id).withGraphFetched(GRAPH).modifiers(graphModifiers).throwIfNotFound();
  }

  /** The simulator only where it runs (demo or ATENDE_SIMULATOR=1): elsewhere its connections would never connect. */
  private assertProvider(provider: string): void {
    if (provider === 'simulator' && !this.providers.has('simulator')) {
      throw new ValidationError(
        'provider: the simulator is off (enable it with atende serve --demo or ATENDE_SIMULATOR=1)',
        undefined,
        ErrorCode.ERR_SIMULATOR_DISABLED,
      );
    }
  }

  private assertGreeting(queueIds: number[], greetingMessage: string): void {
    if (queueIds.length > 1 && !greetingMessage.trim()) {
      throw new ValidationError('A greeting message is required when the connection has more than one queue', undefined, ErrorCode.ERR_WAPP_GREETING_REQUIRED);
    }
  }

  private async assertNameFree(db: Knex, companyId: number, name: string): Promise<void> {
    if (await Whatsapp.query(db).where({ companyId, name }).select('id').first()) throw nameTaken();
  }

  /** Queues and the transfer queue must be the company's own. */
  private async assertQueues(db: Knex, companyId: number, queueIds: number[], transferQueueId: number | null | undefined): Promise<void> {
    const wanted = [...new Set([...queueIds, ...(transferQueueId ? [transferQueueId] : [])])];
    if (wanted.length === 0) return;
    const found = await Queue.query(db).where('companyId', companyId).whereIn('id', wanted).resultSize();
    if (found !== wanted.length) throw new NotFoundError(ErrorCode.ERR_NO_QUEUE_FOUND, 'Queue not found');
  }

  /** Clears the default flag of the company's other connections; answers their ids. */
  private async takeDefault(db: Knex, companyId: number): Promise<number[]> {
    const previous = await Whatsapp.query(db).where({ companyId, isDefault: true }).select('id');
    if (previous.length > 0) await Whatsapp.query(db).whereIn('id', previous.map((w) => w.id)).patch({ isDefault: false });
    return previous.map((w) => w.id);
  }

  private async replaceQueues(db: Knex, whatsappId: number, queueIds: number[]): Promise<void> {
    await db('whatsappQueues').where('whatsappId', whatsappId).delete();
    if (queueIds.length > 0) await db('whatsappQueues').insert(queueIds.map((queueId) => ({ whatsappId, queueId })));
  }

  /** Live rows for everyone in the company: without the token, which only admins may read. */
  private async publishUpdates(companyId: number, ids: number[]): Promise<void> {
    const rows = await Whatsapp.query(this.infra.db).whereIn('id', ids).withGraphFetched(GRAPH).modifiers(graphModifiers);
    const owners = await this.sessions.owners(ids);
    for (const row of rows) {
      this.infra.realtime.publish(companyId, `company-${companyId}-whatsapp`, { action: 'update', whatsapp: toView(row, false, owners.get(row.id) ?? null) });
    }
  }
}
