import type { Knex } from 'knex';

/** Contact lists: the people a campaign is sent to, each number checked on WhatsApp. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contact_lists', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    // Why the WhatsApp check of its numbers waits ('no_connection'), or null.
    t.string('check_waiting', 30);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'name']);
  });
  await knex.schema.createTable('contact_list_items', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE').index();
    t.integer('contact_list_id').notNullable().references('id').inTable('contact_lists').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    // Canonical digits (the Brazilian ninth digit included), as contacts keep them.
    t.string('number', 50).notNullable();
    t.string('email', 255).notNullable().defaultTo('');
    // null until checked on WhatsApp; checked_at null means a check is owed (new or changed number).
    t.boolean('is_whatsapp_valid');
    t.timestamp('whatsapp_checked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['contact_list_id', 'number']);
    t.index(['contact_list_id', 'name']);
    t.index(['contact_list_id', 'whatsapp_checked_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('contact_list_items');
  await knex.schema.dropTableIfExists('contact_lists');
}
