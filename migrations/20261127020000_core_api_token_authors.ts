import type { Knex } from 'knex';

/**
 * The company API token that wrote a message or a ticket note (its author then, with no user): its
 * id and its name as it was, so the conversation and the API say "via token <name>" even after the
 * token is revoked, and the core needs no plugin's table to tell it. A token's name never changes.
 */
const AUTHORED = ['messages', 'ticket_notes'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of AUTHORED) {
    await knex.schema.alterTable(table, (t) => {
      t.integer('api_token_id');
      t.string('api_token_name', 100);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of AUTHORED) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('api_token_name');
      t.dropColumn('api_token_id');
    });
  }
}
