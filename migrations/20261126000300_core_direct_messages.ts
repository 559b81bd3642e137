import type { Knex } from 'knex';

/**
 * Messages sent outside any ticket (whatsapp.sendDirect: campaigns): their provider ids, so the
 * echo of one is not taken for a message typed on the phone (no ticket, no message row) and its
 * acks reach the sender as whatsapp.ack.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('direct_messages', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.integer('whatsapp_id').notNullable();
    t.string('wid', 100).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'wid']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('direct_messages');
}
