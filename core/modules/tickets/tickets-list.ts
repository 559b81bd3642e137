import type { Knex } from 'knex';
import { isPostgres } from '../../db/database.js';
import { nextDay, zonedDayStart } from '../../time/zoned-time.js';
import { whereVisible, type TicketViewer } from './ticket-access.js';
import type { Ticket } from './ticket.model.js';
import { ticketViews, ticketViewsOf } from './ticket-view.js';
import { TICKETS_PAGE_SIZE, type ListTicketsQuery } from './tickets.schema.js';
import type { TicketCardView, TicketView } from '../../contract/views.js';
import { likePattern } from '../../db/like-pattern.js';
import { readRows } from '../../db/reader-pool.js';

/** `count` stops here: counting 100,000 rows for a badge is wasted work (DESIGN §10). */
export const TICKETS_COUNT_CAP = 1000;

/** Message bodies are searched through the trigram index, which needs terms of 3 characters or more. */
export const MESSAGE_SEARCH_MIN = 3;

export interface TicketPage {
  tickets: TicketView[];
  /** How many tickets the filters match, up to TICKETS_COUNT_CAP (a search: up to the page asked for and one more). */
  count: number;
  hasMore: boolean;
}

/**
 * PostgreSQL: up to this many matching messages a search reads them all and keeps their tickets;
 * beyond, it walks the tickets in list order and asks each whether it has a matching message, so
 * it stops at the page.
 */
export const FEW_MESSAGE_MATCHES = 1000;

/** How a search finds the tickets with a matching message: their ids (few matches on PostgreSQL), or null. */
type MessageSearch = { term: string; ticketIds: number[] | null };

/** An FTS5 phrase: with the trigram tokenizer it matches the term as a substring, folding case and accents. */
function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** On PostgreSQL, LIKE `term` over a folded column (atende_fold: lower and unaccent, migration 20261127000100). */
function foldedLike(column: string, term: string): [string, string[]] {
  return [`atende_fold(??) like atende_fold(?) escape '!'`, [column, likePattern(term)]];
}

/** On PostgreSQL, message_search rows (migration 20261127050000) whose folded body holds `term`. */
function searchRowsLike(term: string): [string, string[]] {
  return [`?? like atende_fold(?) escape '!'`, ['messageSearch.folded', likePattern(term)]];
}

/**
 * PostgreSQL: the tickets of the messages matching `term` through the trigram index on
 * message_search.folded, or null when more than FEW_MESSAGE_MATCHES messages match. SQLite asks
 * nothing first (see whereHasMessage).
 */
async function messageSearch(db: Knex, companyId: number, term: string): Promise<MessageSearch> {
  if (!isPostgres(db)) return { term, ticketIds: null };
  const rows = (await db('messageSearch')
    .where('messageSearch.companyId', companyId)
    .whereRaw(...searchRowsLike(term))
    .select('messageSearch.ticketId')
    .limit(FEW_MESSAGE_MATCHES + 1)) as { ticketId: number }[];
  return { term, ticketIds: rows.length > FEW_MESSAGE_MATCHES ? null : [...new Set(rows.map((r) => r.ticketId))] };
}

/**
 * The condition "the ticket has a message matching". SQLite: the FTS5 table messages_search, whose
 * rowid carries the ticket ((ticket_id << 32) + id), names the tickets of every match without
 * reading a message (a set built once; an FTS5 query per ticket costs about as much as one over
 * all, measured). PostgreSQL: the ticket's id among the few found, or (many matches) a probe of the
 * ticket's folded bodies in message_search, by its ticket index, that stops at the first match.
 */
function whereHasMessage(db: Knex, w: Knex.QueryBuilder, search: MessageSearch): void {
  if (!isPostgres(db)) {
    // The unary + keeps the planner walking the tickets in update order (see whereSearch).
    w.orWhereRaw('+?? in (select rowid >> 32 from messages_search where messages_search match ?)', ['tickets.id', ftsPhrase(search.term)]);
  } else if (search.ticketIds) {
    if (search.ticketIds.length > 0) w.orWhereIn('tickets.id', search.ticketIds);
  } else {
    // OFFSET 0 keeps PostgreSQL from turning the EXISTS into a hashed set of every match (measured slower).
    const [like, bindings] = searchRowsLike(search.term);
    w.orWhereRaw(`exists (select 1 from message_search where ?? = ?? and ${like} offset 0)`, ['messageSearch.ticketId', 'tickets.id', ...bindings]);
  }
}

/** The contacts whose name (folding case and accents) or number holds `term`. */
function contactsMatching(db: Knex, companyId: number, term: string): Knex.QueryBuilder {
  const like = likePattern(term);
  const digits = term.replace(/[\s+().\-/]/g, '');
  return db('contacts')
    .where('contacts.companyId', companyId)
    .where((w) => {
      if (isPostgres(db)) w.whereRaw(...foldedLike('contacts.name', term));
      else if ([...term].length >= MESSAGE_SEARCH_MIN) w.whereRaw('?? in (select rowid from contacts_search where contacts_search match ?)', ['contacts.id', ftsPhrase(term)]);
      // Under 3 characters there are no trigrams: SQLite's lower() folds ASCII letters only.
      else w.whereRaw("lower(??) like ? escape '!'", ['contacts.name', like]);
      w.orWhereRaw("?? like ? escape '!'", ['contacts.number', like]);
      // '(11) 9876' finds 5511987…: numbers are stored as digits only.
      if (/^\d+$/.test(digits) && digits !== term) w.orWhereRaw("?? like ? escape '!'", ['contacts.number', likePattern(digits)]);
    })
    .select('contacts.id');
}

/**
 * The search condition. On SQLite the unary + keeps the planner from turning the contact match into
 * index lookups whose results must all be sorted: it walks the tickets in update order and stops at
 * the page, so a broad term ('a', typed first) costs no more than a narrow one. On PostgreSQL, when
 * the matching messages are few, the contacts come as an array: both sides are then index lookups
 * (a bitmap OR) whose few tickets are sorted, instead of a walk through every ticket that ends
 * only when the list does (a page that the few matches do not fill).
 */
function whereSearch(db: Knex, q: Knex.QueryBuilder, companyId: number, term: string, messages: MessageSearch | undefined): void {
  const contacts = contactsMatching(db, companyId, term);
  q.where((w) => {
    if (!isPostgres(db)) w.whereRaw('+?? in ?', ['tickets.contactId', contacts]);
    else if (messages?.ticketIds) w.whereRaw('?? = any(array(?))', ['tickets.contactId', contacts]);
    else w.whereRaw('?? in ?', ['tickets.contactId', contacts]);
    if (messages) whereHasMessage(db, w, messages);
  });
}

/**
 * The queue filter of a ticket list: tickets of `queueIds` and those without queue; an agent may
 * narrow to their own queues only, so a queue they may not see never widens the list. An empty or
 * absent filter narrows nothing.
 */
function narrowToQueues(q: Knex.QueryBuilder, viewer: TicketViewer, asked: number[] | undefined): void {
  if (!asked || asked.length === 0) return;
  const queueIds = viewer.admin ? asked : asked.filter((id) => viewer.queueIds.includes(id));
  q.where((w) => (queueIds.length > 0 ? w.whereIn('tickets.queueId', queueIds).orWhereNull('tickets.queueId') : w.whereNull('tickets.queueId')));
}

/**
 * The filtered `tickets` query of GET /tickets (no order, no columns). Visibility is the server's:
 * without showAll and search, an agent's open and closed lists hold their own tickets and the
 * pending list every pending ticket they may see; admins with showAll see the whole status.
 */
function ticketsQuery(db: Knex, viewer: TicketViewer, query: ListTicketsQuery, timeZone: string, messages: MessageSearch | undefined): Knex.QueryBuilder {
  const me = viewer.user.id;
  const q = db('tickets').where('tickets.companyId', viewer.user.companyId);
  if (query.status) q.where('tickets.status', query.status);

  const searching = query.searchParam !== '';
  if (searching || (viewer.admin && query.showAll)) whereVisible(q, viewer);
  else if (query.status === 'pending') whereVisible(q, viewer);
  else if (query.status) q.where('tickets.userId', me);
  // No status (the notifications list): own tickets and the pending ones in sight.
  else q.where((w) => w.where('tickets.userId', me).orWhere((p) => whereVisible(p.where('tickets.status', 'pending'), viewer)));

  narrowToQueues(q, viewer, query.queueIds);
  if (query.users && query.users.length > 0) q.whereIn('tickets.userId', query.users);
  for (const tagId of query.tags ?? []) {
    // Every chosen tag must be on the ticket.
    q.whereExists((e) => e.select(db.raw('1')).from('ticketTags').where('ticketTags.ticketId', db.ref('tickets.id')).where('ticketTags.tagId', tagId));
  }
  if (query.date) q.where('tickets.createdAt', '>=', zonedDayStart(query.date, timeZone)).where('tickets.createdAt', '<', zonedDayStart(nextDay(query.date), timeZone));
  if (query.updatedAt) {
    q.where('tickets.updatedAt', '>=', zonedDayStart(query.updatedAt, timeZone)).where('tickets.updatedAt', '<', zonedDayStart(nextDay(query.updatedAt), timeZone));
  }
  if (query.withUnreadMessages) q.where('tickets.unreadMessages', '>', 0);

  if (searching) whereSearch(db, q, viewer.user.companyId, query.searchParam, messages);
  return q;
}

/** Newest update first; the id breaks ties so pages neither repeat nor skip a ticket. */
function newestFirst(q: Knex.QueryBuilder): Knex.QueryBuilder {
  return q.orderBy('tickets.updatedAt', 'desc').orderBy('tickets.id', 'desc');
}

/**
 * How many tickets `q` matches, up to `cap`: the database counts the first `cap` rows of the
 * filters (from an index when the filters' columns are in one), no row leaves it.
 */
async function cappedCount(db: Knex, q: Knex.QueryBuilder, cap: number): Promise<number> {
  const row = (await db.from(q.select(db.raw('1')).limit(cap).as('capped')).count({ total: '*' }).first()) as { total: number | string } | undefined;
  return Number(row?.total ?? 0);
}

/**
 * One page of GET /tickets with each ticket's graph. A list reads its page with one joined query
 * (and one for the page's tags) and counts its first TICKETS_COUNT_CAP matches (or up to the page
 * asked for, when deeper) apart. A search reads the ids up to the page asked for and one more
 * only, so that its cost is the page's: its `count` stops there.
 */
export async function listTickets(db: Knex, viewer: TicketViewer, query: ListTicketsQuery, timeZone: string): Promise<TicketPage> {
  const offset = (query.pageNumber - 1) * TICKETS_PAGE_SIZE;
  const term = query.searchParam;
  if (term === '') {
    const matching = () => ticketsQuery(db, viewer, query, timeZone, undefined);
    const [page, count] = await Promise.all([
      ticketViews(db, newestFirst(matching()).limit(TICKETS_PAGE_SIZE).offset(offset)),
      cappedCount(db, matching(), Math.max(TICKETS_COUNT_CAP, offset + TICKETS_PAGE_SIZE + 1)),
    ]);
    return { tickets: page, count: Math.min(count, TICKETS_COUNT_CAP), hasMore: count > offset + TICKETS_PAGE_SIZE };
  }
  const messages = [...term].length >= MESSAGE_SEARCH_MIN ? await messageSearch(db, viewer.user.companyId, term) : undefined;
  // A search is the heavy read of a list: off the event loop where the database allows it.
  const rows = await readRows<{ id: number }>(db, newestFirst(ticketsQuery(db, viewer, query, timeZone, messages).select('tickets.id')).limit(offset + TICKETS_PAGE_SIZE + 1));
  return {
    tickets: await ticketViewsOf(db, viewer.user.companyId, rows.slice(offset, offset + TICKETS_PAGE_SIZE).map((r) => r.id)),
    count: Math.min(rows.length, TICKETS_COUNT_CAP),
    hasMore: rows.length > offset + TICKETS_PAGE_SIZE,
  };
}

/** A board reads at most this many tickets, the newest; `hasMore` says when there were more. */
export const TICKET_CARDS_CAP = 10_000;

/** A card shows the start of the last message. */
const CARD_MESSAGE_LENGTH = 255;

/** Tag ids are read for this many tickets a query (within every database's bound parameters). */
const TAG_CHUNK = 1000;

type CardRow = Pick<Ticket, 'id' | 'uuid' | 'status' | 'userId' | 'queueId' | 'lastMessage'> & {
  /** PostgreSQL answers a Date, SQLite the ISO text the model wrote. */
  updatedAt: string | Date;
  contactId: number;
  contactName: string;
  contactNumber: string;
};

/**
 * The open and pending tickets `viewer` may see (the rule of GET /tickets/:id and of the ticket
 * frames' rooms), newest update first, as board cards with their tag ids; `queueIds` narrows them
 * as the queue filter of GET /tickets does. Two queries whatever the count: the cards, then their
 * tags by chunks of ids.
 */
export async function listTicketCards(db: Knex, viewer: TicketViewer, queueIds: number[] | undefined): Promise<{ tickets: TicketCardView[]; hasMore: boolean }> {
  const q = db('tickets')
    .join('contacts', 'contacts.id', 'tickets.contactId')
    .where('tickets.companyId', viewer.user.companyId)
    .whereIn('tickets.status', ['open', 'pending']);
  whereVisible(q, viewer);
  narrowToQueues(q, viewer, queueIds);
  const rows = (await q
    .select('tickets.id', 'tickets.uuid', 'tickets.status', 'tickets.userId', 'tickets.queueId', 'tickets.updatedAt', 'tickets.contactId')
    .select(db.raw('substr(??, 1, ?) as ??', ['tickets.lastMessage', CARD_MESSAGE_LENGTH, 'lastMessage']))
    .select('contacts.name as contactName', 'contacts.number as contactNumber')
    .orderBy('tickets.updatedAt', 'desc')
    .orderBy('tickets.id', 'desc')
    .limit(TICKET_CARDS_CAP + 1)) as CardRow[];
  const shown = rows.slice(0, TICKET_CARDS_CAP);
  const tagsOf = new Map<number, { id: number }[]>(shown.map((row) => [row.id, []]));
  for (let i = 0; i < shown.length; i += TAG_CHUNK) {
    const ids = shown.slice(i, i + TAG_CHUNK).map((row) => row.id);
    const links = (await db('ticketTags').whereIn('ticketId', ids).orderBy('tagId').select('ticketId', 'tagId')) as { ticketId: number; tagId: number }[];
    for (const link of links) tagsOf.get(link.ticketId)!.push({ id: link.tagId });
  }
  const tickets = shown.map((row) => ({
    id: row.id,
    uuid: row.uuid,
    status: row.status,
    userId: row.userId,
    queueId: row.queueId,
    lastMessage: row.lastMessage ?? '',
    updatedAt: new Date(row.updatedAt).toISOString(),
    contact: { id: row.contactId, name: row.contactName, number: row.contactNumber },
    tags: tagsOf.get(row.id)!,
  }));
  return { tickets, hasMore: rows.length > TICKET_CARDS_CAP };
}
