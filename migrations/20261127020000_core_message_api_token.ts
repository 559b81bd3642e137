import type { Knex } from 'knex';

/**
 * The company API token that sent a message (its author then, with no user): its id and its name
 * as it was, so the conversation and the API say "via token <name>" even after the token is
 * revoked, and the core needs no plugin's table to tell it. A token's name never changes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.integer('api_token_id');
    t.string('api_token_name', 100);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.dropColumn('api_token_name');
    t.dropColumn('api_token_id');
  });
}
