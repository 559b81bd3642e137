import type { Knex } from 'knex';
import type { TicketView } from '../../contract/views.js';
import { readOffLoop } from '../../db/reader-pool.js';
import { Ticket } from './ticket.model.js';

/**
 * The ticket as the API and the live events show it (TicketView): the row with its contact,
 * queue, user, connection and tags, each reduced to what a ticket row and header need. Read with
 * one joined query for the rows and one for their tags, mapped straight to the view: a page of 40
 * costs two statements instead of six and no model hydration.
 */

/** The ticket's own columns, in the order the answer has always listed them. */
const TICKET_COLUMNS = [
  'id', 'createdAt', 'updatedAt', 'companyId', 'uuid', 'status', 'unreadMessages', 'lastMessage', 'isGroup', 'fromMe', 'userId',
  'contactId', 'whatsappId', 'queueId', 'queueOptionId', 'chatbot', 'useIntegration', 'integrationId', 'promptId', 'amountUsedBotQueues',
] as const;

/** Each related row's columns, selected as `<relation><Column>` (contactProfilePicUrl). */
const RELATED = {
  contact: { table: 'contacts', key: 'contactId', columns: ['id', 'uuid', 'name', 'number', 'email', 'profilePicUrl', 'isGroup'] },
  queue: { table: 'queues', key: 'queueId', columns: ['id', 'name', 'color'] },
  user: { table: 'users', key: 'userId', columns: ['id', 'name'] },
  whatsapp: { table: 'whatsapps', key: 'whatsappId', columns: ['id', 'name'] },
} as const;

type Relation = keyof typeof RELATED;
type Row = Record<string, unknown>;

const alias = (relation: Relation, column: string) => `${relation}${column[0]!.toUpperCase()}${column.slice(1)}`;

/** SQLite answers booleans as 0/1 and timestamps as the ISO text written; PostgreSQL as booleans and Dates. */
const bool = (value: unknown) => value === true || value === 1;
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : (value as string));

function related(row: Row, relation: Relation): Row | null {
  const { columns } = RELATED[relation];
  if (row[alias(relation, 'id')] === null) return null;
  const view: Row = {};
  for (const column of columns) view[column] = row[alias(relation, column)];
  return view;
}

function toTicketView(row: Row, tags: TicketView['tags']): TicketView {
  const view: Row = {};
  for (const column of TICKET_COLUMNS) view[column] = row[column];
  view.createdAt = iso(row.createdAt);
  view.updatedAt = iso(row.updatedAt);
  for (const column of ['isGroup', 'fromMe', 'chatbot', 'useIntegration']) view[column] = bool(row[column]);
  // Every ticket has its contact (a foreign key, not null).
  const contact = related(row, 'contact')!;
  contact.isGroup = bool(contact.isGroup);
  Object.assign(view, { contact, queue: related(row, 'queue'), user: related(row, 'user'), whatsapp: related(row, 'whatsapp'), tags });
  return view as unknown as TicketView;
}

/** How a query's rows are read: on its connection, or by readRows. */
type Read = (query: Knex.QueryBuilder) => Promise<unknown[]>;

const onConnection: Read = async (query) => (await query) as unknown[];

/**
 * The tickets `query` (on `tickets`, filtered, maybe ordered and limited) selects, as views in its
 * order, both statements read by `read`. Every relation is a left join on a primary key, so the
 * planner keeps walking `tickets` as the query's filters and order ask. Tags come in id order.
 */
export async function ticketViews(db: Knex, query: Knex.QueryBuilder, read: Read = onConnection): Promise<TicketView[]> {
  query.select(TICKET_COLUMNS.map((column) => `tickets.${column}`));
  for (const [relation, { table, key, columns }] of Object.entries(RELATED) as [Relation, (typeof RELATED)[Relation]][]) {
    query.leftJoin(table, `${table}.id`, `tickets.${key}`).select(columns.map((column) => `${table}.${column} as ${alias(relation, column)}`));
  }
  const rows = (await read(query)) as Row[];
  if (rows.length === 0) return [];
  const tagsOf = new Map<number, TicketView['tags']>(rows.map((row) => [row.id as number, []]));
  const links = (await read(
    db('ticketTags')
      .join('tags', 'tags.id', 'ticketTags.tagId')
      .whereIn('ticketTags.ticketId', [...tagsOf.keys()])
      .orderBy('tags.id')
      .select('ticketTags.ticketId', 'tags.id', 'tags.name', 'tags.color'),
  )) as { ticketId: number; id: number; name: string; color: string }[];
  for (const { ticketId, id, name, color } of links) tagsOf.get(ticketId)!.push({ id, name, color });
  return rows.map((row) => toTicketView(row, tagsOf.get(row.id as number)!));
}

/**
 * The tickets of `ids` (a search's page) as views, in the order of `ids`; on SQLite by a reader
 * thread, as the rest of the search, not on the event loop. On PostgreSQL it is a list page's read,
 * light and planned once: outside the search's place among the heavy reads.
 */
export async function ticketViewsOf(db: Knex, companyId: number, ids: number[]): Promise<TicketView[]> {
  if (ids.length === 0) return [];
  const views = await ticketViews(db, db('tickets').where('tickets.companyId', companyId).whereIn('tickets.id', ids), (query) => readOffLoop(db, query));
  const byId = new Map(views.map((view) => [view.id, view]));
  return ids.map((id) => byId.get(id)!);
}

/** One ticket of a company found by `where` (its id or uuid), as a model carrying its graph, or undefined. */
export async function findTicket(db: Knex, companyId: number, where: { id: number } | { uuid: string }): Promise<Ticket | undefined> {
  const [column, value] = 'id' in where ? ['tickets.id', where.id] : ['tickets.uuid', where.uuid];
  const [view] = await ticketViews(db, db('tickets').where('tickets.companyId', companyId).where(column, value));
  return view && Ticket.fromJson(view, { skipValidation: true });
}

/** One ticket of a company with its graph, or undefined. */
export function loadTicket(db: Knex, companyId: number, id: number): Promise<Ticket | undefined> {
  return findTicket(db, companyId, { id });
}
