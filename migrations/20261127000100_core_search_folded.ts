import type { Knex } from 'knex';
import { createExtension, upPostgres as restorePostgres, upSqlite as restoreSqlite } from './20261122000410_core_message_search.js';

/**
 * Ticket search bounded by the page, accent- and case-insensitive (issue 19): "promoção",
 * "PROMOCAO" and "promocao" all find "Promoção".
 *
 * SQLite: the message FTS5 trigram table folds case and diacritics (remove_diacritics) and its rowid
 * carries the ticket, (ticket_id << 32) + id, so a match names its ticket without reading the
 * message. Contact names get the same kind of table (rowid = contacts.id).
 *
 * PostgreSQL: atende_fold(text), lower(unaccent(text)) declared immutable (unaccent's dictionary is
 * fixed at install), and GIN trigram indexes on atende_fold(messages.body), atende_fold(contacts.name)
 * and contacts.number. Without unaccent the fold is lower() only; without pg_trgm there is no index.
 */
const MESSAGES_FTS = 'messages_search';
const CONTACTS_FTS = 'contacts_search';
const OLD_TICKET_OF = 'messages_ticket_of';
const OLD_TRGM = 'messages_body_trgm';
const PG_INDEXES = {
  messages_body_folded_trgm: 'messages USING gin (atende_fold(body) gin_trgm_ops)',
  contacts_name_folded_trgm: 'contacts USING gin (atende_fold(name) gin_trgm_ops)',
  contacts_number_trgm: 'contacts USING gin (number gin_trgm_ops)',
};

/** The FTS5 rowid of a message: its ticket in the high 32 bits. */
export const MESSAGE_KEY = (row: 'new' | 'old' | 'messages') => `(${row}.ticket_id << 32) + ${row}.id`;

/**
 * How a table indexes its column: the column as it is (this migration), or folded by `value`
 * (migration 20261128000000); with `detail: 'none'`, which trigrams a row holds but not where
 * (migration 20261128100000).
 */
export interface FtsText {
  tokenize: string;
  value(column: string): string;
  detail?: 'none';
}

const AS_IS: FtsText = { tokenize: 'trigram remove_diacritics 1', value: (column) => column };

/** An FTS5 trigram table of `source`'s `column`, kept by triggers; `watched` are the columns whose update rewrites a row. */
export async function ftsTable(knex: Knex, table: string, source: string, column: string, key: (row: 'new' | 'old' | 'messages') => string, watched: string, text = AS_IS): Promise<void> {
  const detail = text.detail ? `, detail=${text.detail}` : '';
  await knex.raw(`CREATE VIRTUAL TABLE ${table} USING fts5(${column}, content='', contentless_delete=1, tokenize='${text.tokenize}'${detail})`);
  await knex.raw(`INSERT INTO ${table} (rowid, ${column}) SELECT ${key('messages').replaceAll('messages.', `${source}.`)}, ${text.value(column)} FROM ${source}`);
  await knex.raw(`CREATE TRIGGER ${table}_insert AFTER INSERT ON ${source} BEGIN
    INSERT INTO ${table} (rowid, ${column}) VALUES (${key('new')}, ${text.value(`new.${column}`)});
  END`);
  await knex.raw(`CREATE TRIGGER ${table}_update AFTER UPDATE OF ${watched} ON ${source} BEGIN
    DELETE FROM ${table} WHERE rowid = ${key('old')};
    INSERT INTO ${table} (rowid, ${column}) VALUES (${key('new')}, ${text.value(`new.${column}`)});
  END`);
  await knex.raw(`CREATE TRIGGER ${table}_delete AFTER DELETE ON ${source} BEGIN
    DELETE FROM ${table} WHERE rowid = ${key('old')};
  END`);
}

export async function dropFtsTable(knex: Knex, table: string): Promise<void> {
  for (const trigger of ['insert', 'update', 'delete']) await knex.raw(`DROP TRIGGER IF EXISTS ${table}_${trigger}`);
  await knex.raw(`DROP TABLE IF EXISTS ${table}`);
}

export async function upSqlite(knex: Knex): Promise<void> {
  await dropFtsTable(knex, MESSAGES_FTS);
  await knex.raw(`DROP INDEX IF EXISTS ${OLD_TICKET_OF}`);
  await ftsTable(knex, MESSAGES_FTS, 'messages', 'body', MESSAGE_KEY, 'body, ticket_id');
  await ftsTable(knex, CONTACTS_FTS, 'contacts', 'name', (row) => `${row}.id`, 'name');
}

async function upPostgres(knex: Knex): Promise<void> {
  const unaccent = await createExtension(knex, 'unaccent', 'search is case-insensitive only');
  let fold = 'lower($1)';
  if (unaccent) {
    // Qualified: an index expression is also evaluated with an empty search_path (restore, vacuum).
    const { rows } = (await knex.raw("SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'unaccent'")) as { rows: { schema: string }[] };
    const schema = rows[0]!.schema;
    fold = `lower(${schema}.unaccent('${schema}.unaccent'::regdictionary, $1))`;
  }
  await knex.raw(`CREATE OR REPLACE FUNCTION atende_fold(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT ${fold} $$`);
  const { rows } = (await knex.raw("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")) as { rows: unknown[] };
  if (rows.length === 0) return;
  await knex.raw(`DROP INDEX IF EXISTS ${OLD_TRGM}`);
  for (const [name, on] of Object.entries(PG_INDEXES)) await knex.raw(`CREATE INDEX IF NOT EXISTS ${name} ON ${on}`);
}

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') await upPostgres(knex);
  else await upSqlite(knex);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    // unaccent stays, as pg_trgm does: other objects may use it.
    for (const name of Object.keys(PG_INDEXES)) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
    await knex.raw('DROP FUNCTION IF EXISTS atende_fold(text)');
    await restorePostgres(knex);
  } else {
    await dropFtsTable(knex, CONTACTS_FTS);
    await dropFtsTable(knex, MESSAGES_FTS);
    await restoreSqlite(knex);
  }
}
