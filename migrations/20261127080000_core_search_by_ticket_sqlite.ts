import type { Knex } from 'knex';

/**
 * Ticket search bounded by the page (issue 19): the probe "has this ticket a matching message",
 * made for each ticket of a walk in list order, reads one place.
 *
 * PostgreSQL: message_search (migration 20261127050000) is read by a covering index, ticket and
 * folded body, so that a probe reads index pages only (an index-only scan) instead of one heap page
 * a message, rows that arrive interleaved with other tickets' lying apart. A btree entry holds up
 * to about 2,700 bytes: the index covers the bodies under 2,000 bytes, and a second one, by ticket
 * only, the longer ones (the probe asks both). They replace the index by ticket: still one index
 * entry written a message.
 *
 * SQLite: as PostgreSQL has it since migration 20261127050000. A narrow table holds each message's folded body beside its ticket, keyed by
 * (ticket_id, message_id) without rowid: a ticket's rows lie together, so the probe "has this
 * ticket a matching message", made for each ticket of a walk in list order, reads a few short rows
 * from one place. The FTS5 table messages_search stays: it finds the few tickets of a rare term.
 *
 * The fold is plain SQL (lower() and replace() of the accented Latin letters, the same as
 * core/db/sqlite-fold.ts), so the triggers run on every connection with nothing to register.
 * One row written per message written: an insert, a delete, an edit or a move to another ticket.
 * The fold costs about 10 µs a message with accents (lower() alone: 1 µs), measured.
 */
const TABLE = 'message_search';
const PG_OLD = 'message_search_ticket';
const PG_INDEXES = {
  message_search_ticket_folded: `${TABLE} (ticket_id) INCLUDE (folded) WHERE octet_length(folded) < 2000`,
  message_search_ticket_long: `${TABLE} (ticket_id) WHERE octet_length(folded) >= 2000`,
};
/** A copy of FOLDED_LETTERS (core/db/sqlite-fold.ts) as this migration wrote it. */
const LETTERS: Record<string, string> = {
  a: 'àáâãäåÀÁÂÃÄÅ',
  e: 'èéêëÈÉÊË',
  i: 'ìíîïÌÍÎÏ',
  o: 'òóôõöÒÓÔÕÖ',
  u: 'ùúûüÙÚÛÜ',
  c: 'çÇ',
  n: 'ñÑ',
  y: 'ýÿÝ',
};

const PAIRS = Object.entries(LETTERS).flatMap(([bare, accented]) => [...accented].map((c): [string, string] => [c, bare]));
/** Replacements nested in one expression: the SQLite shell's parser (stack of 100) reads no deeper than ~25. */
const CHUNK = 10;

/** A scalar subquery replacing each of `pairs` in `start`, CHUNK at a time, one nested SELECT each. */
function replaced(pairs: [string, string][], start: string): string {
  let query = `SELECT ${start} AS f`;
  for (let k = 0; k < pairs.length; k += CHUNK) {
    let e = 'f';
    for (const [c, bare] of pairs.slice(k, k + CHUNK)) e = `replace(${e}, '${c}', '${bare}')`;
    query = `SELECT ${e} AS f FROM (${query})`;
  }
  return `(${query})`;
}

/**
 * `text` folded: lower(), then the accented letters replaced, the capitals (U+00C0 to U+00DE) only
 * when there are some and the small ones only when there is a letter of U+00C0 to U+00FF.
 */
function fold(text: string): string {
  const capitals = PAIRS.filter(([c]) => c <= 'Þ');
  const smalls = PAIRS.filter(([c]) => c > 'Þ');
  const lowered = `CASE WHEN ${text} GLOB '*[À-Þ]*' THEN ${replaced(capitals, `lower(${text})`)} ELSE lower(${text}) END`;
  return `CASE WHEN ${text} GLOB '*[À-ÿ]*' THEN ${replaced(smalls, lowered)} ELSE lower(${text}) END`;
}

async function upPostgres(knex: Knex): Promise<void> {
  for (const [name, on] of Object.entries(PG_INDEXES)) await knex.raw(`CREATE INDEX IF NOT EXISTS ${name} ON ${on}`);
  await knex.raw(`DROP INDEX IF EXISTS ${PG_OLD}`);
}

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') return upPostgres(knex);
  await foldedBodies(knex, fold);
}

/** The table of folded bodies and its triggers, each body folded by the SQL `fold` gives (migration 20261128000000 gives atende_fold). */
export async function foldedBodies(knex: Knex, fold: (text: string) => string): Promise<void> {
  await knex.raw(`CREATE TABLE ${TABLE} (
    ticket_id integer NOT NULL,
    message_id integer NOT NULL,
    folded text NOT NULL,
    PRIMARY KEY (ticket_id, message_id)
  ) WITHOUT ROWID`);
  await knex.raw(`INSERT INTO ${TABLE} (ticket_id, message_id, folded) SELECT ticket_id, id, ${fold('body')} FROM messages ORDER BY ticket_id, id`);
  await knex.raw(`CREATE TRIGGER ${TABLE}_insert AFTER INSERT ON messages BEGIN
    INSERT INTO ${TABLE} (ticket_id, message_id, folded) VALUES (new.ticket_id, new.id, ${fold('new.body')});
  END`);
  await knex.raw(`CREATE TRIGGER ${TABLE}_update AFTER UPDATE OF body, ticket_id ON messages
    WHEN old.body IS NOT new.body OR old.ticket_id IS NOT new.ticket_id BEGIN
    DELETE FROM ${TABLE} WHERE ticket_id = old.ticket_id AND message_id = old.id;
    INSERT INTO ${TABLE} (ticket_id, message_id, folded) VALUES (new.ticket_id, new.id, ${fold('new.body')});
  END`);
  await knex.raw(`CREATE TRIGGER ${TABLE}_delete AFTER DELETE ON messages BEGIN
    DELETE FROM ${TABLE} WHERE ticket_id = old.ticket_id AND message_id = old.id;
  END`);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex.raw(`CREATE INDEX IF NOT EXISTS ${PG_OLD} ON ${TABLE} (ticket_id)`);
    for (const name of Object.keys(PG_INDEXES)) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
    return;
  }
  for (const trigger of ['insert', 'update', 'delete']) await knex.raw(`DROP TRIGGER IF EXISTS ${TABLE}_${trigger}`);
  await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
}
