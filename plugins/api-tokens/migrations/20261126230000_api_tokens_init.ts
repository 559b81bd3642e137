import type { Knex } from 'knex';

/** Company API tokens: named, scoped, acting through the admin who made them; only their hash is kept. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_tokens', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE').index();
    // The admin who made it: the token acts through them, and goes with them.
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE').index();
    t.string('name', 100).notNullable();
    // Comma-separated scopes (tickets:read,messages:write).
    t.string('scopes', 255).notNullable();
    // sha256 of the token, hex: the token itself is shown once and never stored.
    t.string('token_hash', 64).notNullable().unique();
    // Its first characters (atk_AbCd), so an admin can tell which token a system holds.
    t.string('hint', 16).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('api_tokens');
}
