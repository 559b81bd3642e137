import type { Knex } from 'knex';

/** The external messages API: one bearer token per connection (only its hash) and the answers kept for retried requests. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('messages_api_tokens', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE').index();
    t.integer('connection_id').notNullable().unique().references('id').inTable('whatsapps').onDelete('CASCADE');
    // sha256 of the token, hex: the token itself is shown once and never stored.
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
  });
  await knex.schema.createTable('messages_api_requests', (t) => {
    t.increments('id');
    t.integer('token_id').notNullable().references('id').inTable('messages_api_tokens').onDelete('CASCADE');
    t.string('idempotency_key', 255).notNullable();
    // The JSON answer of the first request; null while it is being handled.
    t.text('answer');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['token_id', 'idempotency_key']);
    t.index('created_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('messages_api_requests');
  await knex.schema.dropTableIfExists('messages_api_tokens');
}
