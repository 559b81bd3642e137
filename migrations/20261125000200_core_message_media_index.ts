import type { Knex } from 'knex';

/**
 * A download finds the original name of a stored file by the message that holds it. Partial (only
 * rows with a file), so the text messages that are most of the table cost the index nothing.
 */
const INDEX = 'messages_company_media_path';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.index(['company_id', 'media_path'], INDEX, { predicate: knex.whereNotNull('media_path') });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.dropIndex(['company_id', 'media_path'], INDEX);
  });
}
