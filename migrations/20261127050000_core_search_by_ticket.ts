import type { Knex } from 'knex';

/**
 * PostgreSQL: ticket search bounded by the page (issue 19). A narrow table holds each message's
 * folded body (atende_fold, migration 20261127000100) beside its ticket, indexed by ticket: walking
 * the tickets in list order, the probe "has this ticket a matching message" reads a few short
 * rows already folded, instead of the wide message rows folded one by one (unaccent costs about
 * 10 µs a call, most of a search's time before). Its trigram index answers the few-matches case
 * and checks each candidate without folding it again; it replaces the one on atende_fold(messages.body).
 *
 * Kept by triggers on every write to messages, insert and delete by statement (one insert for a
 * batch of messages), an edit or a move to another ticket by row. They fire also when a session
 * replays rows as a replica (session_replication_role), as bulk loads do: the table follows
 * every message. SQLite searches its FTS5 table and has nothing to change.
 */
const TABLE = 'message_search';
const SYNC = 'message_search_sync';
const TRIGGERS = {
  message_search_insert: `AFTER INSERT ON messages REFERENCING NEW TABLE AS changed FOR EACH STATEMENT`,
  message_search_delete: `AFTER DELETE ON messages REFERENCING OLD TABLE AS changed FOR EACH STATEMENT`,
  message_search_update: `AFTER UPDATE OF body, ticket_id ON messages FOR EACH ROW
    WHEN (old.body IS DISTINCT FROM new.body OR old.ticket_id IS DISTINCT FROM new.ticket_id)`,
};
const OLD_TRGM = 'messages_body_folded_trgm';
const TRGM = 'message_search_folded_trgm';

async function hasTrigram(knex: Knex): Promise<boolean> {
  const { rows } = (await knex.raw("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")) as { rows: unknown[] };
  return rows.length > 0;
}

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw(`CREATE TABLE ${TABLE} (
    message_id integer PRIMARY KEY,
    ticket_id integer NOT NULL,
    company_id integer NOT NULL,
    folded text NOT NULL
  )`);
  // Filled in ticket order, so that the probes of a walk find their rows together.
  await knex.raw(`INSERT INTO ${TABLE} (message_id, ticket_id, company_id, folded)
    SELECT id, ticket_id, company_id, atende_fold(body) FROM messages ORDER BY ticket_id, id`);
  await knex.raw(`CREATE INDEX ${TABLE}_ticket ON ${TABLE} (ticket_id)`);
  if (await hasTrigram(knex)) {
    await knex.raw(`DROP INDEX IF EXISTS ${OLD_TRGM}`);
    await knex.raw(`CREATE INDEX ${TRGM} ON ${TABLE} USING gin (folded gin_trgm_ops)`);
  }
  await knex.raw(`CREATE FUNCTION ${SYNC}() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO ${TABLE} (message_id, ticket_id, company_id, folded)
        SELECT id, ticket_id, company_id, atende_fold(body) FROM changed;
    ELSIF TG_OP = 'DELETE' THEN
      DELETE FROM ${TABLE} WHERE message_id IN (SELECT id FROM changed);
    ELSE
      UPDATE ${TABLE} SET ticket_id = new.ticket_id, folded = atende_fold(new.body) WHERE message_id = new.id;
    END IF;
    RETURN NULL;
  END $$`);
  for (const [name, when] of Object.entries(TRIGGERS)) {
    await knex.raw(`CREATE TRIGGER ${name} ${when} EXECUTE FUNCTION ${SYNC}()`);
    await knex.raw(`ALTER TABLE messages ENABLE ALWAYS TRIGGER ${name}`);
  }
  await knex.raw(`ANALYZE ${TABLE}`);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  for (const name of Object.keys(TRIGGERS)) await knex.raw(`DROP TRIGGER IF EXISTS ${name} ON messages`);
  await knex.raw(`DROP FUNCTION IF EXISTS ${SYNC}()`);
  await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
  if (await hasTrigram(knex)) await knex.raw(`CREATE INDEX IF NOT EXISTS ${OLD_TRGM} ON messages USING gin (atende_fold(body) gin_trgm_ops)`);
}
