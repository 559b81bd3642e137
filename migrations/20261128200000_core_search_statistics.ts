import type { Knex } from 'knex';

/**
 * PostgreSQL: ANALYZE samples 300,000 rows of message_search's folded bodies (statistics target
 * 1000, against 30,000 by default) so that the planner's estimate of a search term's matches is
 * close enough for the search to decide from it alone that they are many (issue 19,
 * core/modules/tickets/tickets-list.ts): at the default target a term in 1% of the messages is
 * one histogram entry or none. The estimate is the share of the sampled bodies that hold the term.
 *
 * SQLite counts in its FTS5 index: nothing to do.
 */
async function setTarget(knex: Knex, target: number): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw(`ALTER TABLE message_search ALTER COLUMN folded SET STATISTICS ${target}`);
  await knex.raw('ANALYZE message_search');
}

export async function up(knex: Knex): Promise<void> {
  await setTarget(knex, 1000);
}

export async function down(knex: Knex): Promise<void> {
  await setTarget(knex, -1);
}
