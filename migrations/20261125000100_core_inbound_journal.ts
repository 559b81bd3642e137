import type { Knex } from 'knex';

/**
 * The inbound journal: a driver event (message, call, contact) is written here before anything
 * acknowledges it, and deleted in the transaction that stores what it became. What is left after a
 * crash is processed again on the next start, in id order per chat. An entry that kept failing is
 * kept with `failed_at` set, for a person to look at.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('inbound_journal', (t) => {
    t.increments('id'); // the order events arrived in
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE').index();
    t.integer('connection_id').notNullable().references('id').inTable('whatsapps').onDelete('CASCADE');
    t.string('chat', 255).notNullable();
    t.text('event').notNullable(); // the normalized driver event, JSON
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('error');
    t.timestamp('failed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('inbound_journal');
}
