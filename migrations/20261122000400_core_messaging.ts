import type { Knex } from 'knex';

/**
 * What the messaging pipeline needs beyond the core schema: who sent a message, where its send
 * stands in the durable queue, its location and vcard, and the ticket list's unread filter.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    // 'received' (inbound or own-device), 'queued' (waiting for the connection), 'sent', 'failed'.
    t.string('send_status', 10).notNullable().defaultTo('received');
    t.text('send_error');
    t.integer('send_attempts').notNullable().defaultTo(0);
    t.text('location'); // JSON { latitude, longitude, name?, address? }
    t.text('vcard');
    t.string('media_mime', 100);
  });
  // A connection that comes back sends what waited for it: found without scanning every message.
  await knex.raw(`CREATE INDEX messages_queued ON messages (ticket_id) WHERE send_status = 'queued'`);
  await knex.schema.alterTable('tickets', (t) => {
    t.index(['company_id', 'contact_id'], 'tickets_company_contact');
  });
  await knex.schema.alterTable('ticket_tracking', (t) => {
    t.index(['ticket_id', 'finished_at'], 'ticket_tracking_open');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ticket_tracking', (t) => t.dropIndex(['ticket_id', 'finished_at'], 'ticket_tracking_open'));
  await knex.schema.alterTable('tickets', (t) => t.dropIndex(['company_id', 'contact_id'], 'tickets_company_contact'));
  await knex.raw('DROP INDEX messages_queued');
  await knex.schema.alterTable('messages', (t) => {
    for (const column of ['user_id', 'send_status', 'send_error', 'send_attempts', 'location', 'vcard', 'media_mime']) t.dropColumn(column);
  });
}
