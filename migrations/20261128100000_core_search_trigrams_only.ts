import type { Knex } from 'knex';
import { dropFtsTable, ftsTable, MESSAGE_KEY, type FtsText } from './20261127000100_core_search_folded.js';
import { FOLDED } from './20261128000000_core_search_fold_every_script.js';

/**
 * SQLite's FTS5 table of message bodies keeps which trigrams each message holds, not where
 * (detail=none; issue 19). A search asks it for the messages holding every trigram of each word
 * of its term (core/modules/tickets/tickets-list.ts), a superset of the matches that the probe of
 * message_search confirms, as it already confirmed the words asked apart. Without the positions
 * the index is 42% smaller (415 MB against 711 MB for 1,000,000 messages) and a stored message
 * costs about a fifth less to write (315 µs against 380–400 µs, its row, indexes and both search
 * tables), the most of the inbound pipeline's time spent in one statement.
 *
 * PostgreSQL searches through pg_trgm: nothing to do.
 */
const MESSAGES_FTS = 'messages_search';

async function rebuild(knex: Knex, text: FtsText): Promise<void> {
  if (knex.client.config.client === 'pg') return;
  await dropFtsTable(knex, MESSAGES_FTS);
  await ftsTable(knex, MESSAGES_FTS, 'messages', 'body', MESSAGE_KEY, 'body, ticket_id', text);
}

export async function up(knex: Knex): Promise<void> {
  await rebuild(knex, { ...FOLDED, detail: 'none' });
}

export async function down(knex: Knex): Promise<void> {
  await rebuild(knex, FOLDED);
}
