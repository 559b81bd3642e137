import type { Knex } from 'knex';

/**
 * The dispatch of campaigns: one shipping row per contact of a running campaign, the state of its
 * sends (pending → queued → sent → delivered → read, awaiting a confirmation, failed, skipped),
 * with the WhatsApp ids chosen before each send so that a crash and restart resend the same ids.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaign_shippings', (t) => {
    t.increments('id');
    t.integer('campaign_id').notNullable().references('id').inTable('campaigns').onDelete('CASCADE');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    // Canonical digits.
    t.string('number', 50).notNullable();
    t.string('name', 100).notNullable().defaultTo('');
    t.string('email', 255).notNullable().defaultTo('');
    // Where the contact came from: an item of the contact list, or a contact holding the tag.
    t.integer('contact_list_item_id');
    t.integer('contact_id');
    // pending, queued, awaiting (confirmation asked), sent, delivered, read, failed, skipped.
    t.string('state', 20).notNullable().defaultTo('pending');
    t.string('failure_reason', 255);
    // The chosen message with its variables filled in, and its confirmation request.
    t.text('message').notNullable().defaultTo('');
    t.text('confirmation_message');
    // Chosen and stored before the send: a resend after a crash reuses them.
    t.string('wa_message_id', 100);
    t.string('confirmation_wa_message_id', 100);
    // The pause planned before this contact's send (ms, from the campaign settings).
    t.integer('wait_ms');
    t.timestamp('confirmation_requested_at', { useTz: true });
    t.timestamp('confirmed_at', { useTz: true });
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['campaign_id', 'number']);
    t.index(['campaign_id', 'state']);
    t.index(['company_id', 'wa_message_id']);
    t.index(['company_id', 'number', 'state']);
    t.index(['sent_at']);
  });
  await knex.schema.alterTable('campaigns', (t) => {
    // A campaign paused by WhatsApp's limit waits until then.
    t.timestamp('resume_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.dropColumn('resume_at');
  });
  await knex.schema.dropTableIfExists('campaign_shippings');
}
