import type { Knex } from 'knex';
import { dropFtsTable, upSqlite as restoreFtsTables } from './20261127000100_core_search_folded.js';
import { down as dropFoldedBodies, up as restoreFoldedBodies } from './20261127080000_core_search_by_ticket_sqlite.js';

/**
 * SQLite search folds every script (issue 19): "привет" finds "ПРИВЕТ", "lodz" finds "Łódź", as
 * on PostgreSQL. The plain-SQL fold of migration 20261127080000 lowered ASCII and bared the
 * Latin-1 letters only, and the FTS5 tables' remove_diacritics bares Latin letters only, so a Greek
 * or Cyrillic capital, or "ł", was found by neither.
 *
 * The three search tables now hold text folded by atende_fold, the function of
 * core/db/search-fold.ts that every connection of the product registers: message_search (the
 * per-ticket probe) and the FTS5 tables of message bodies and contact names, which a search asks
 * with its term folded the same way. Their rows are written again from messages and contacts.
 * A tool that writes messages or contacts on another connection (the sqlite3 shell) must register
 * the function too, or its write fails with "no such function: atende_fold".
 *
 * PostgreSQL folds with its own atende_fold (migration 20261127000100): nothing to do.
 */
const FOLDED = 'message_search';
const MESSAGES_FTS = 'messages_search';
const CONTACTS_FTS = 'contacts_search';

/** The FTS5 rowid of a message: its ticket in the high 32 bits (migration 20261127000100). */
const messageKey = (row: string) => `(${row}.ticket_id << 32) + ${row}.id`;

/** An FTS5 trigram table of `source`'s `column` folded, kept by triggers; `watched` are the columns whose update rewrites a row. */
async function foldedFts(knex: Knex, table: string, source: string, column: string, key: (row: string) => string, watched: string): Promise<void> {
  await knex.raw(`CREATE VIRTUAL TABLE ${table} USING fts5(${column}, content='', contentless_delete=1, tokenize='trigram')`);
  await knex.raw(`INSERT INTO ${table} (rowid, ${column}) SELECT ${key(source)}, atende_fold(${column}) FROM ${source}`);
  await knex.raw(`CREATE TRIGGER ${table}_insert AFTER INSERT ON ${source} BEGIN
    INSERT INTO ${table} (rowid, ${column}) VALUES (${key('new')}, atende_fold(new.${column}));
  END`);
  await knex.raw(`CREATE TRIGGER ${table}_update AFTER UPDATE OF ${watched} ON ${source} BEGIN
    DELETE FROM ${table} WHERE rowid = ${key('old')};
    INSERT INTO ${table} (rowid, ${column}) VALUES (${key('new')}, atende_fold(new.${column}));
  END`);
  await knex.raw(`CREATE TRIGGER ${table}_delete AFTER DELETE ON ${source} BEGIN
    DELETE FROM ${table} WHERE rowid = ${key('old')};
  END`);
}

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') return;
  for (const trigger of ['insert', 'update']) await knex.raw(`DROP TRIGGER ${FOLDED}_${trigger}`);
  await knex.raw(`DELETE FROM ${FOLDED}`);
  await knex.raw(`INSERT INTO ${FOLDED} (ticket_id, message_id, folded) SELECT ticket_id, id, atende_fold(body) FROM messages ORDER BY ticket_id, id`);
  await knex.raw(`CREATE TRIGGER ${FOLDED}_insert AFTER INSERT ON messages BEGIN
    INSERT INTO ${FOLDED} (ticket_id, message_id, folded) VALUES (new.ticket_id, new.id, atende_fold(new.body));
  END`);
  await knex.raw(`CREATE TRIGGER ${FOLDED}_update AFTER UPDATE OF body, ticket_id ON messages
    WHEN old.body IS NOT new.body OR old.ticket_id IS NOT new.ticket_id BEGIN
    DELETE FROM ${FOLDED} WHERE ticket_id = old.ticket_id AND message_id = old.id;
    INSERT INTO ${FOLDED} (ticket_id, message_id, folded) VALUES (new.ticket_id, new.id, atende_fold(new.body));
  END`);

  await dropFtsTable(knex, MESSAGES_FTS);
  await dropFtsTable(knex, CONTACTS_FTS);
  await foldedFts(knex, MESSAGES_FTS, 'messages', 'body', messageKey, 'body, ticket_id');
  await foldedFts(knex, CONTACTS_FTS, 'contacts', 'name', (row) => `${row}.id`, 'name');
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') return;
  await dropFtsTable(knex, MESSAGES_FTS);
  await dropFtsTable(knex, CONTACTS_FTS);
  await restoreFtsTables(knex);
  await dropFoldedBodies(knex);
  await restoreFoldedBodies(knex);
}
