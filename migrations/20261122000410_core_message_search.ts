import type { Knex } from 'knex';

/**
 * Substring search over message bodies for the ticket list (DESIGN §10: 1,000,000 messages).
 * SQLite: an FTS5 table with the trigram tokenizer, contentless (rowid = messages.id, the body is
 * not stored twice), kept by triggers, and a narrow index from a message to its ticket, so the
 * matches find their tickets without reading the wide message rows. PostgreSQL: a GIN trigram
 * index on lower(body), when the pg_trgm extension can be created; without it the search still
 * works, unindexed. Both: tickets by company and last update, the order of a search over every status.
 */
const FTS = 'messages_search';
const TICKET_OF = 'messages_ticket_of';
const TRGM_INDEX = 'messages_body_trgm';
const UPDATED_INDEX = 'tickets_company_updated_at';

function warn(knex: Knex, message: string): void {
  (knex.client as { logger: { warn(message: string): void } }).logger.warn(message);
}

/** Creates `extension` in a savepoint (a refused CREATE EXTENSION must not abort the migration's transaction); false, with a warning, when refused. */
export async function createExtension(knex: Knex, extension: string, without: string): Promise<boolean> {
  try {
    await knex.transaction((sp) => sp.raw(`CREATE EXTENSION IF NOT EXISTS ${extension}`));
    return true;
  } catch (err) {
    warn(knex, `${extension} could not be created (${(err as Error).message}): ${without}`);
    return false;
  }
}

/** The PostgreSQL index of this migration (also restored by the down of 20261127000100). */
export async function upPostgres(knex: Knex): Promise<void> {
  if (!(await createExtension(knex, 'pg_trgm', 'message search runs without an index'))) return;
  await knex.raw(`CREATE INDEX IF NOT EXISTS ${TRGM_INDEX} ON messages USING gin (lower(body) gin_trgm_ops)`);
}

/** The SQLite search table of this migration (also restored by the down of 20261127000100). */
export async function upSqlite(knex: Knex): Promise<void> {
  await knex.raw(`CREATE VIRTUAL TABLE ${FTS} USING fts5(body, content='', contentless_delete=1, tokenize='trigram')`);
  await knex.raw(`INSERT INTO ${FTS} (rowid, body) SELECT id, body FROM messages`);
  await knex.raw(`CREATE TRIGGER ${FTS}_insert AFTER INSERT ON messages BEGIN
    INSERT INTO ${FTS} (rowid, body) VALUES (new.id, new.body);
  END`);
  await knex.raw(`CREATE TRIGGER ${FTS}_update AFTER UPDATE OF body ON messages BEGIN
    DELETE FROM ${FTS} WHERE rowid = old.id;
    INSERT INTO ${FTS} (rowid, body) VALUES (new.id, new.body);
  END`);
  await knex.raw(`CREATE TRIGGER ${FTS}_delete AFTER DELETE ON messages BEGIN
    DELETE FROM ${FTS} WHERE rowid = old.id;
  END`);
  await knex.raw(`CREATE INDEX ${TICKET_OF} ON messages (id, ticket_id)`);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tickets', (t) => {
    t.index(['company_id', 'updated_at', 'contact_id'], UPDATED_INDEX);
  });
  if (knex.client.config.client === 'pg') await upPostgres(knex);
  else await upSqlite(knex);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    // The extension stays: other objects may use it.
    await knex.raw(`DROP INDEX IF EXISTS ${TRGM_INDEX}`);
  } else {
    for (const trigger of ['insert', 'update', 'delete']) await knex.raw(`DROP TRIGGER IF EXISTS ${FTS}_${trigger}`);
    await knex.raw(`DROP INDEX IF EXISTS ${TICKET_OF}`);
    await knex.raw(`DROP TABLE IF EXISTS ${FTS}`);
  }
  await knex.schema.alterTable('tickets', (t) => {
    t.dropIndex(['company_id', 'updated_at', 'contact_id'], UPDATED_INDEX);
  });
}
