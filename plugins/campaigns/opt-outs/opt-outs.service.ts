import type { Knex } from 'knex';
import {
  canonicalNumber,
  ConflictError,
  ErrorCode,
  isPostgres,
  likePattern,
  NotFoundError,
  type AuthUser,
  type EventOf,
  type PluginApp,
} from 'atende/plugin';
import { assertAdmin } from '../assert-admin.js';
import { Campaign } from '../campaigns/campaign.model.js';
import { optOutKey, type CampaignSettingsService } from '../settings/campaign-settings.service.js';
import { answeredCampaignId } from './answered-campaign.js';
import type { OptOutEvent, OptOutPage, OptOutView } from './opt-out.contract.js';
import { OptOut } from './opt-out.model.js';
import { OPT_OUTS_PAGE_SIZE, type ListOptOutsQuery } from './opt-outs.schema.js';

/** The room (in the plugin's namespace) whose sockets hear the list change: admins', through the `joinCampaignOptOuts` frame. */
export const OPT_OUTS_ROOM = 'optOuts';
/** The one message a customer gets when put on the list. */
export const OPT_OUT_CONFIRMATION = 'Pronto! Você não receberá mais mensagens das nossas campanhas.';
/** Opt-out words are one word of at most this length (the settings' rule). */
const WORD_MAX = 30;
/** Numbers looked up per statement (SQLite's bound-parameter limit). */
const CHUNK = 500;

type InboundMessage = EventOf<'message.created'>;

const notFound = () => new NotFoundError(ErrorCode.ERR_NO_CAMPAIGN_OPT_OUT_FOUND);

/**
 * The numbers of the company on the opt-out list, a query to use inside another (the dispatch:
 * `whereNotIn('number', optedOutNumbers(db, companyId))` when it picks a campaign's contacts).
 */
export function optedOutNumbers(db: Knex, companyId: number): Knex.QueryBuilder {
  return db(OptOut.tableName).where('companyId', companyId).select('number');
}

/**
 * Which of `numbers` (canonical digits) are on the company's opt-out list: the dispatch skips them.
 * Any count of numbers, looked up 500 at a time.
 */
export async function optedOut(db: Knex, companyId: number, numbers: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < numbers.length; i += CHUNK) {
    const rows: { number: string }[] = await optedOutNumbers(db, companyId).whereIn('number', numbers.slice(i, i + CHUNK));
    for (const row of rows) found.add(row.number);
  }
  return found;
}

/** The message's text when it can be an opt-out: a customer's text of one short word (a cheap test, before any lookup). */
function candidateWord({ message, ticket }: InboundMessage['payload']): string | null {
  if (message.fromMe || message.mediaType !== null || ticket.isGroup) return null;
  const text = message.body.trim();
  return text.length > 0 && text.length <= WORD_MAX && !/\s/.test(text) ? optOutKey(text) : null;
}

/**
 * The company's opt-out list (an addition to the spec): numbers that asked for no more campaigns,
 * which every later campaign skips. A customer who answers a campaign with exactly one opt-out word
 * (SAIR, PARAR, STOP, CANCELAR or the company's own; any case, with or without accents) is put on
 * it and told so once; admins see, search, add, remove and export it.
 */
export class OptOutsService {
  constructor(
    private readonly app: PluginApp,
    private readonly settings: CampaignSettingsService,
  ) {}

  // ---- the customer's answer ------------------------------------------------------------------

  /** Whether an inbound message is worth the durable handling: one of the company's opt-out words. */
  async isOptOutWord(event: InboundMessage): Promise<boolean> {
    const word = candidateWord(event.payload);
    return word !== null && event.companyId !== null && (await this.settings.optOutWords(event.companyId)).has(word);
  }

  /**
   * A customer wrote an opt-out word: when a campaign was meant for their number, the number goes
   * on the list (kept as it is when already there) and, the first time only, one confirmation is
   * queued on the ticket the message came in, in the same transaction. Safe to run again. Answers
   * the number (canonical) when it is on the list, for the dispatch to skip what still waits for it.
   */
  async handleInbound(event: InboundMessage): Promise<string | null> {
    const companyId = event.companyId;
    const { ticket } = event.payload;
    if (companyId === null || !ticket.contact || !(await this.isOptOutWord(event))) return null;
    const word = candidateWord(event.payload)!;
    const number = canonicalNumber(ticket.contact.number);
    const campaignId = await answeredCampaignId(this.app.db, companyId, number);
    if (campaignId === null) return null;
    const created = await this.app.db.transaction(async (trx) => {
      if (await this.find(trx, companyId, number)) return null;
      const row = await OptOut.query(trx).insert({ companyId, number, word, campaignId });
      await this.app.services.outbound.enqueue({ companyId, ticketId: ticket.id, userId: null, body: OPT_OUT_CONFIRMATION }, trx);
      return row;
    });
    if (created) {
      await this.app.services.tickets.publish(companyId, ticket.id);
      await this.announce('create', created);
    }
    return number;
  }

  // ---- admins ---------------------------------------------------------------------------------

  /** GET /campaign-opt-outs: 20 a page, newest first; searched by number digits or by word. */
  async list(actor: AuthUser, query: ListOptOutsQuery): Promise<OptOutPage> {
    assertAdmin(actor);
    const scoped = () => {
      const q = OptOut.query(this.app.db).where('companyId', actor.companyId);
      const digits = query.searchParam.replace(/\D/g, '');
      if (digits) q.whereRaw("?? like ? escape '!'", ['number', likePattern(digits)]);
      else if (query.searchParam) q.whereRaw("?? like ? escape '!'", ['word', likePattern(optOutKey(query.searchParam))]);
      return q;
    };
    const [rows, count] = await Promise.all([
      scoped()
        .orderBy('id', 'desc')
        .limit(OPT_OUTS_PAGE_SIZE + 1)
        .offset((query.pageNumber - 1) * OPT_OUTS_PAGE_SIZE),
      scoped().resultSize(),
    ]);
    return { records: await this.views(rows.slice(0, OPT_OUTS_PAGE_SIZE)), count, hasMore: rows.length > OPT_OUTS_PAGE_SIZE };
  }

  /** POST /campaign-opt-outs: an admin puts a number on the list (409 when it is there already). */
  async add(actor: AuthUser, number: string): Promise<OptOutView> {
    assertAdmin(actor);
    const companyId = actor.companyId;
    const row = await this.app.db.transaction(async (trx) => {
      if (await this.find(trx, companyId, number)) throw new ConflictError(ErrorCode.ERR_CAMPAIGN_OPT_OUT_EXISTS, 'This number is already on the opt-out list');
      return OptOut.query(trx).insert({ companyId, number, word: null, campaignId: null });
    });
    return this.announce('create', row);
  }

  /** DELETE /campaign-opt-outs/:id: the number may receive campaigns again. */
  async remove(actor: AuthUser, id: number): Promise<void> {
    assertAdmin(actor);
    const row = await OptOut.query(this.app.db).findOne({ id, companyId: actor.companyId });
    if (!row) throw notFound();
    if ((await OptOut.query(this.app.db).delete().where({ id, companyId: actor.companyId })) === 0) throw notFound();
    await this.announce('delete', row);
  }

  /** GET /campaign-opt-outs/export: the whole list as CSV (';' between fields, as the contacts export; a BOM so Excel reads it as UTF-8). */
  async exportCsv(actor: AuthUser): Promise<string> {
    assertAdmin(actor);
    const rows = await OptOut.query(this.app.db).where('companyId', actor.companyId).orderBy('id');
    const views = await this.views(rows);
    const lines = [['number', 'word', 'campaign', 'createdAt'], ...views.map((v) => [v.number, v.word ?? '', v.campaign?.name ?? '', v.createdAt])];
    return `\uFEFF${lines.map((cells) => cells.map(csvCell).join(';')).join('\r\n')}\r\n`;
  }

  // ---- helpers --------------------------------------------------------------------------------

  /** The number's entry, locked for the transaction on PostgreSQL. */
  private async find(trx: Knex.Transaction, companyId: number, number: string): Promise<OptOut | undefined> {
    const query = OptOut.query(trx).findOne({ companyId, number });
    return isPostgres(trx) ? query.forUpdate() : query;
  }

  private async views(rows: OptOut[]): Promise<OptOutView[]> {
    const ids = [...new Set(rows.flatMap((r) => (r.campaignId === null ? [] : [r.campaignId])))];
    const campaigns = ids.length === 0 ? [] : await Campaign.query(this.app.db).whereIn('id', ids).select('id', 'name');
    const nameOf = new Map(campaigns.map((c) => [c.id, c.name]));
    return rows.map((r) => ({
      id: r.id,
      number: r.number,
      word: r.word,
      campaign: r.campaignId !== null && nameOf.has(r.campaignId) ? { id: r.campaignId, name: nameOf.get(r.campaignId)! } : null,
      createdAt: r.createdAt,
    }));
  }

  /** `company-{id}-campaignOptOut`, to the admins' sockets that joined OPT_OUTS_ROOM (the list is theirs). */
  private async announce(action: OptOutEvent['action'], row: OptOut): Promise<OptOutView> {
    const [record] = await this.views([row]);
    const event: OptOutEvent = { action, record: record! };
    this.app.realtime.publish(row.companyId, `company-${row.companyId}-campaignOptOut`, event, OPT_OUTS_ROOM);
    return record!;
  }
}

/** A CSV cell: quoted when it holds the separator, a quote or a line break; a leading =, +, - or @ made inert for spreadsheets. */
function csvCell(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
