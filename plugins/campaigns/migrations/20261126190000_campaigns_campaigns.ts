import type { Knex } from 'knex';

/**
 * Campaigns (spec §3 Campaign) and the company's opt-out list: numbers that asked to receive no
 * more campaigns, skipped by every later one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaigns', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.string('name', 50).notNullable();
    // INATIVA, PROGRAMADA, EM_ANDAMENTO, CANCELADA, FINALIZADA (spec §4 Campaign status).
    t.string('status', 20).notNullable().defaultTo('INATIVA');
    t.boolean('confirmation').notNullable().defaultTo(false);
    t.timestamp('scheduled_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.integer('whatsapp_id').references('id').inTable('whatsapps').onDelete('SET NULL');
    t.integer('contact_list_id').references('id').inTable('contact_lists').onDelete('SET NULL');
    // Contacts holding this tag, instead of a contact list ('Nenhuma' is null).
    t.integer('tag_list_id').references('id').inTable('tags').onDelete('SET NULL');
    // A file list of the files plugin, sent before the message; no foreign key, as that plugin may be absent.
    t.integer('file_list_id');
    for (const n of [1, 2, 3, 4, 5]) {
      t.text(`message${n}`);
      t.text(`confirmation_message${n}`);
    }
    t.string('media_path', 255);
    t.string('media_name', 255);
    // Why a running campaign waits ('disconnected', 'daily_cap', 'rate_limited', …), or null.
    t.string('pause_reason', 50);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'name']);
    t.index(['status', 'scheduled_at']);
  });
  await knex.schema.createTable('campaign_opt_outs', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    // Canonical digits, as contacts and list items keep them.
    t.string('number', 50).notNullable();
    // The word the customer answered with; null when an admin added the number.
    t.string('word', 50);
    // The campaign the customer answered, for its report; null when added by hand or the campaign is gone.
    t.integer('campaign_id').references('id').inTable('campaigns').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'number']);
    t.index(['campaign_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('campaign_opt_outs');
  await knex.schema.dropTableIfExists('campaigns');
}
