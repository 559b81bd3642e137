import type { Knex } from 'knex';
import { isPostgres } from '../../db/database.js';
import { nextDay, zonedDayStart } from '../../time/zoned-time.js';
import { whereVisible, type TicketViewer } from './ticket-access.js';
import type { Ticket } from './ticket.model.js';
import { ticketViews, ticketViewsOf } from './ticket-view.js';
import { TICKETS_PAGE_SIZE, type ListTicketsQuery } from './tickets.schema.js';
import type { TicketCardView, TicketView } from '../../contract/views.js';
import { likePattern } from '../../db/like-pattern.js';
import { heavyRead, readRows } from '../../db/reader-pool.js';
import { foldText } from '../../db/search-fold.js';

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
 * Up to this many matching messages (and contacts), a search reads them all and keeps their
 * tickets: the page is then a sort of those few. Beyond, it walks the tickets in list order and asks
 * each whether it has a matching message, an index probe, so it stops at the page: many matches
 * make the walk short.
 */
export const FEW_MESSAGE_MATCHES = 1000;

/**
 * A search's message side: the term as message_search holds bodies (folded by atende_fold on
 * PostgreSQL, by foldText of search-fold.ts on SQLite), and the tickets of its matching messages
 * when they are few (null: many, walk).
 */
type MessageSearch = { folded: string; ticketIds: number[] | null };

/** The tickets of the matching messages read (at most FEW_MESSAGE_MATCHES + 1), or null when they are more than few. */
function fewTickets(rows: { ticketId: number }[]): number[] | null {
  return rows.length > FEW_MESSAGE_MATCHES ? null : [...new Set(rows.map((r) => r.ticketId))];
}

/** An FTS5 phrase: with the trigram tokenizer it matches the term as a substring (the tables hold folded text: a folded term). */
function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** On PostgreSQL, LIKE `term` over a folded column (atende_fold: lower and unaccent, migration 20261127000100). */
function foldedLike(column: string, term: string): [string, string[]] {
  return [`atende_fold(??) like atende_fold(?) escape '!'`, [column, likePattern(term)]];
}

/**
 * The term folded as message_search holds bodies: on PostgreSQL by atende_fold, asked once here so
 * that no probe folds it again; on SQLite by the function the tables' triggers call (search-fold.ts).
 */
async function foldedTerm(db: Knex, term: string): Promise<string> {
  if (!isPostgres(db)) return foldText(term);
  const { rows } = (await db.raw('select atende_fold(?) as folded', [term])) as { rows: { folded: string }[] };
  return rows[0]!.folded;
}

/**
 * SQLite: an FTS5 query for the messages that may hold `folded` (a folded term): every trigram of
 * each of its words of three characters or more, all of them. The table keeps which trigrams a
 * message holds, not where (migration 20261128100000), so this finds a superset of the matches,
 * which the probe of message_search confirms. Null: no word long enough.
 */
function ftsTrigrams(folded: string): string | null {
  const trigrams = new Set<string>();
  for (const word of folded.split(/\s+/)) {
    const chars = [...word];
    for (let i = 0; i + MESSAGE_SEARCH_MIN <= chars.length; i++) trigrams.add(chars.slice(i, i + MESSAGE_SEARCH_MIN).join(''));
  }
  return trigrams.size > 0 ? [...trigrams].map(ftsPhrase).join(' AND ') : null;
}

/**
 * PostgreSQL: the planner's estimate above which a term's matches are taken as many without
 * reading them. Reading up to the 1,001st match of a frequent term costs more as the messages grow
 * (36 ms for "boleto" among 10M); the estimate costs a plan whatever their number. It counts the
 * term in ANALYZE's sample of the bodies (migration 20261128200000): a term of at most
 * FEW_MESSAGE_MATCHES matches is estimated five times higher by chance less than once in 250, and
 * is then walked (found all the same, in more time).
 */
export const MANY_BY_ESTIMATE = 5 * FEW_MESSAGE_MATCHES;

/** PostgreSQL: how many rows the planner expects `query` to answer (EXPLAIN, nothing read). */
async function estimatedRows(db: Knex, query: Knex.QueryBuilder): Promise<number> {
  const { sql, bindings } = query.select(db.raw('1')).toSQL();
  const { rows } = (await db.raw(`explain (format json) ${sql}`, bindings)) as { rows: { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[] };
  return rows[0]!['QUERY PLAN'][0]!.Plan['Plan Rows'];
}

/**
 * PostgreSQL: the rows of message_search whose folded body holds `folded`. A term of several words
 * is looked up in the trigram index word by word, then checked whole on each candidate: given the
 * whole term, pg_trgm also reads the trigrams of its words' edges ("  p" and " pi" in "boleto pix",
 * words starting with p), whose lists hold most messages.
 */
function holdingFolded(q: Knex.QueryBuilder, folded: string): Knex.QueryBuilder {
  const words = folded.split(/\s+/).filter((word) => word !== '');
  if (words.length < 2) return q.whereRaw("?? like ? escape '!'", ['messageSearch.folded', likePattern(folded)]);
  for (const word of words) q.whereRaw("?? like ? escape '!'", ['messageSearch.folded', likePattern(word)]);
  // strpos is no operator of the trigram index: the whole term is checked, not looked up.
  return q.whereRaw('strpos(??, ?) > 0', ['messageSearch.folded', folded]);
}

/**
 * The tickets that may hold a message matching `term`, or null when more than FEW_MESSAGE_MATCHES
 * messages may: through the trigram index of message_search.folded on PostgreSQL, the FTS5 table
 * messages_search on SQLite (whose rowid carries the ticket, (ticket_id << 32) + id). Either stops
 * at the first FEW_MESSAGE_MATCHES + 1 matches; PostgreSQL reads none when the planner expects
 * more than MANY_BY_ESTIMATE. The probe of message_search confirms each ticket
 * (hasMessage): on SQLite the FTS5 query, trigram by trigram, is a superset.
 */
async function messageSearch(db: Knex, companyId: number, term: string): Promise<MessageSearch> {
  const folded = await foldedTerm(db, term);
  if (isPostgres(db)) {
    const matching = () => holdingFolded(db('messageSearch').where('messageSearch.companyId', companyId), folded);
    if ((await estimatedRows(db, matching())) > MANY_BY_ESTIMATE) return { folded, ticketIds: null };
    const rows = (await matching().select('messageSearch.ticketId').limit(FEW_MESSAGE_MATCHES + 1)) as { ticketId: number }[];
    return { folded, ticketIds: fewTickets(rows) };
  }
  const match = ftsTrigrams(folded);
  if (!match) return { folded, ticketIds: null };
  const rows = await readRows<{ ticketId: number }>(
    db,
    db.from('messagesSearch').whereRaw('?? match ?', ['messagesSearch', match]).select(db.raw('rowid >> 32 as ??', ['ticketId'])).limit(FEW_MESSAGE_MATCHES + 1),
  );
  return { folded, ticketIds: fewTickets(rows) };
}

/** The bindings of one EXISTS of the PostgreSQL probe. */
function probeBindings(folded: string): string[] {
  return ['messageSearch.ticketId', 'tickets.id', 'messageSearch.folded', 'messageSearch.folded', likePattern(folded)];
}

/** The condition "the ticket has a message matching": a probe of the ticket's rows in message_search (its covering indexes by ticket on PostgreSQL, its key on SQLite) that stops at the first match. */
function hasMessage(db: Knex, search: MessageSearch): Knex.Raw {
  return isPostgres(db)
    ? // The bodies under 2,000 bytes from the covering index, the longer ones by the other (migration 20261127080000).
      // OFFSET 0 keeps PostgreSQL from turning an EXISTS into a hashed set of every match (measured slower).
      db.raw(
        `(exists (select 1 from message_search where ?? = ?? and octet_length(??) < 2000 and ?? like ? escape '!' offset 0)
          or exists (select 1 from message_search where ?? = ?? and octet_length(??) >= 2000 and ?? like ? escape '!' offset 0))`,
        [...probeBindings(search.folded), ...probeBindings(search.folded)],
      )
    : db.raw('exists (select 1 from message_search where ?? = ?? and instr(??, ?) > 0)', ['messageSearch.ticketId', 'tickets.id', 'messageSearch.folded', search.folded]);
}

/**
 * The contacts whose name (folding case and accents) or number holds `term`. Numbers are digits
 * (a group's older ids, digits and a hyphen): a term with any other character is not looked for
 * in them, so that a word is found through the names' index alone, not by reading every number.
 */
function contactsMatching(db: Knex, companyId: number, term: string): Knex.QueryBuilder {
  const like = likePattern(term);
  const digits = term.replace(/[\s+().\-/]/g, '');
  return db('contacts')
    .where('contacts.companyId', companyId)
    .where((w) => {
      if (isPostgres(db)) w.whereRaw(...foldedLike('contacts.name', term));
      else if ([...term].length >= MESSAGE_SEARCH_MIN) w.whereRaw('?? in (select rowid from contacts_search where contacts_search match ?)', ['contacts.id', ftsPhrase(foldText(term))]);
      // Under 3 characters there are no trigrams: SQLite's lower() folds ASCII letters only.
      else w.whereRaw("lower(??) like ? escape '!'", ['contacts.name', like]);
      if (/^[\d-]+$/.test(term)) w.orWhereRaw("?? like ? escape '!'", ['contacts.number', like]);
      // '(11) 9876' finds 5511987…: numbers are stored as digits only.
      if (/^\d+$/.test(digits) && digits !== term) w.orWhereRaw("?? like ? escape '!'", ['contacts.number', likePattern(digits)]);
    })
    .select('contacts.id');
}

/**
 * A search whose matches are few: the contacts matching, and the tickets that may match. On
 * SQLite those are the tickets of the messages found and of those contacts, each to be checked
 * (its FTS5 query is a superset); on PostgreSQL the tickets of the messages found, which match.
 */
type FewMatches = { contactIds: number[]; ticketIds: number[] };

/**
 * With few matching messages, the contacts matching, when few too (up to FEW_MESSAGE_MATCHES).
 * PostgreSQL then plans the page from the two lists of ids in one query: its planner chooses
 * between reading those tickets and walking the list order, from their number. SQLite reads the
 * contacts' tickets too, when at most twice as many, so that the search is a sort of those few,
 * read by id. Null: a walk in list order finds the page sooner.
 */
async function fewMatches(db: Knex, companyId: number, term: string, messages: MessageSearch): Promise<FewMatches | null> {
  const contacts = await readRows<{ id: number }>(db, contactsMatching(db, companyId, term).limit(FEW_MESSAGE_MATCHES + 1));
  if (contacts.length > FEW_MESSAGE_MATCHES) return null;
  const contactIds = contacts.map((r) => r.id);
  if (isPostgres(db)) return { contactIds, ticketIds: messages.ticketIds! };
  const byContact =
    contactIds.length === 0
      ? []
      : await readRows<{ id: number }>(db, db('tickets').where('tickets.companyId', companyId).whereIn('tickets.contactId', contactIds).select('tickets.id').limit(2 * FEW_MESSAGE_MATCHES + 1));
  if (byContact.length > 2 * FEW_MESSAGE_MATCHES) return null;
  return { contactIds, ticketIds: [...new Set([...messages.ticketIds!, ...byContact.map((r) => r.id)])] };
}

/**
 * The search condition. When the matches are few, on PostgreSQL a ticket matches when its contact
 * is among the contacts matching or it is among the messages' tickets (both exact: the messages
 * were read by the whole term). On SQLite the tickets are those few, read by id, each checked (its
 * contact among the matching ones, or a message probed) and sorted. Otherwise the
 * tickets are walked in list order, each checked against the contacts (a set built once) and
 * probed for a matching message, and the walk stops at the page: many matches make it short, so a
 * broad term ('a', typed first) costs no more than a narrow one. On SQLite the unary + keeps the
 * planner walking the tickets in update order instead of turning the contact match into index
 * lookups whose results must all be sorted.
 */
function whereSearch(db: Knex, q: Knex.QueryBuilder, companyId: number, term: string, messages: MessageSearch | undefined, few: FewMatches | null): void {
  if (few && isPostgres(db)) {
    q.where((w) => w.whereIn('tickets.contactId', few.contactIds).orWhereIn('tickets.id', few.ticketIds));
    return;
  }
  if (few) {
    q.whereIn('tickets.id', few.ticketIds).where((w) => {
      if (few.contactIds.length > 0) w.whereIn('tickets.contactId', few.contactIds);
      w.orWhereRaw(hasMessage(db, messages!));
    });
    return;
  }
  q.where((w) => {
    w.whereRaw(`${isPostgres(db) ? '' : '+'}?? in ?`, ['tickets.contactId', contactsMatching(db, companyId, term)]);
    if (messages) w.orWhereRaw(hasMessage(db, messages));
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
function ticketsQuery(db: Knex, viewer: TicketViewer, query: ListTicketsQuery, timeZone: string, messages?: MessageSearch, few: FewMatches | null = null): Knex.QueryBuilder {
  const me = viewer.user.id;
  const q = db('tickets');
  // Few tickets, read by id: on SQLite the unary + keeps the planner from walking the company's
  // tickets in list order (its indexes all start with the company) to find those few among them.
  if (few && !isPostgres(db)) q.whereRaw('+?? = ?', ['tickets.companyId', viewer.user.companyId]);
  else q.where('tickets.companyId', viewer.user.companyId);
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

  if (searching) whereSearch(db, q, viewer.user.companyId, query.searchParam, messages, few);
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
    const matching = () => ticketsQuery(db, viewer, query, timeZone);
    const [page, count] = await Promise.all([
      ticketViews(db, newestFirst(matching()).limit(TICKETS_PAGE_SIZE).offset(offset)),
      cappedCount(db, matching(), Math.max(TICKETS_COUNT_CAP, offset + TICKETS_PAGE_SIZE + 1)),
    ]);
    return { tickets: page, count: Math.min(count, TICKETS_COUNT_CAP), hasMore: count > offset + TICKETS_PAGE_SIZE };
  }
  // A search's reads of matches and ids are the heavy reads of a list: off the event loop where the
  // database allows it, all of them in one place of PostgreSQL's cap on heavy reads. Its page's
  // views are a list page's read (on SQLite off the event loop too).
  const rows = await heavyRead(db, async () => {
    const messages = [...term].length >= MESSAGE_SEARCH_MIN ? await messageSearch(db, viewer.user.companyId, term) : undefined;
    // Few matching messages: the contacts too, when few, so that the tickets are read by id, not walked.
    const few = messages?.ticketIds ? await fewMatches(db, viewer.user.companyId, term, messages) : null;
    return readRows<{ id: number }>(db, newestFirst(ticketsQuery(db, viewer, query, timeZone, messages, few).select('tickets.id')).limit(offset + TICKETS_PAGE_SIZE + 1));
  });
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
