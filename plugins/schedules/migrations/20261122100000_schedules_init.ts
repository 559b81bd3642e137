import type { Knex } from 'knex';

/** Scheduled messages: one row per message an agent planned to send to a contact at `send_at`. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('schedules', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.integer('contact_id').notNullable().references('id').inTable('contacts').onDelete('CASCADE').index();
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    // Set when the message is handed to the send queue: the ticket it went out on and its row.
    t.integer('ticket_id').references('id').inTable('tickets').onDelete('SET NULL');
    t.integer('message_id').references('id').inTable('messages').onDelete('SET NULL').index();
    t.text('body').notNullable();
    t.timestamp('send_at', { useTz: true }).notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.string('status', 12).notNullable().defaultTo('PENDENTE');
    t.string('error', 255);
    t.string('media_path', 255);
    t.string('media_name', 255);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'send_at']);
    // The sweep's question: which rows are still waiting although their time has passed.
    t.index(['status', 'send_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('schedules');
}
