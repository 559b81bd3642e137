import type { Knex } from 'knex';
import { dropFtsTable, ftsTable, MESSAGE_KEY, upSqlite as restoreFtsTables, type FtsText } from './20261127000100_core_search_folded.js';
import { down as dropFoldedBodies, foldedBodies, up as restoreFoldedBodies } from './20261127080000_core_search_by_ticket_sqlite.js';

/**
 * SQLite search folds every script (issue 19): "привет" finds "ПРИВЕТ", "lodz" finds "Łódź", as
 * on PostgreSQL. The plain-SQL fold of migration 20261127080000 lowered ASCII and bared the
 * Latin-1 letters only, and the FTS5 tables' remove_diacritics bares Latin letters only, so a Greek
 * or Cyrillic capital, or "ł", was found by neither.
 *
 * The three search tables now hold text folded by atende_fold, the function of
 * core/db/search-fold.ts that every connection of the product registers: message_search (the
 * per-ticket probe) and the FTS5 tables of message bodies and contact names, which a search asks
 * with its term folded the same way. They are built again, from messages and contacts, by the
 * builders of those migrations given this fold.
 * A tool that writes messages or contacts on another connection (the sqlite3 shell) must register
 * the function too, or its write fails with "no such function: atende_fold".
 *
 * PostgreSQL folds with its own atende_fold (migration 20261127000100): nothing to do.
 */
const MESSAGES_FTS = 'messages_search';
const CONTACTS_FTS = 'contacts_search';

const atendeFold = (text: string) => `atende_fold(${text})`;
/** Text folded by atende_fold, trigrams with their positions. */
export const FOLDED: FtsText = { tokenize: 'trigram', value: atendeFold };

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') return;
  await dropFoldedBodies(knex);
  await foldedBodies(knex, atendeFold);
  await dropFtsTable(knex, MESSAGES_FTS);
  await dropFtsTable(knex, CONTACTS_FTS);
  await ftsTable(knex, MESSAGES_FTS, 'messages', 'body', MESSAGE_KEY, 'body, ticket_id', FOLDED);
  await ftsTable(knex, CONTACTS_FTS, 'contacts', 'name', (row) => `${row}.id`, 'name', FOLDED);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') return;
  await dropFtsTable(knex, MESSAGES_FTS);
  await dropFtsTable(knex, CONTACTS_FTS);
  await restoreFtsTables(knex);
  await dropFoldedBodies(knex);
  await restoreFoldedBodies(knex);
}
