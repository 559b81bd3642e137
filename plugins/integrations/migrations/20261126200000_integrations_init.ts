import type { Knex } from 'knex';

/**
 * Queue integrations (spec: QueueIntegration) and each ticket's session with the one holding it.
 * Connections, queues and tickets already carry integration_id (core).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('queue_integrations', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.string('type', 20).notNullable();
    t.string('name', 50).notNullable();
    // dialogflow: project, service-account JSON (sealed with the plugin's key, never sent back), language.
    t.string('project_name', 200).notNullable().defaultTo('');
    t.text('json_content').notNullable().defaultTo('');
    t.string('language', 10).notNullable().defaultTo('pt-BR');
    // n8n and webhook: the URL posted to; typebot: the typebot server's base URL.
    t.string('url_n8n', 500).notNullable().defaultTo('');
    t.string('typebot_slug', 200).notNullable().defaultTo('');
    t.integer('typebot_expires').notNullable().defaultTo(1);
    t.string('typebot_keyword_finish', 100).notNullable().defaultTo('');
    t.string('typebot_keyword_restart', 100).notNullable().defaultTo('');
    t.text('typebot_unknown_message').notNullable().defaultTo('');
    t.integer('typebot_delay_message').notNullable().defaultTo(1000);
    t.text('typebot_restart_message').notNullable().defaultTo('');
    // The HMAC key of n8n and webhook calls (sealed).
    t.text('webhook_secret').notNullable();
    t.text('last_error');
    t.timestamp('last_error_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'name']);
  });
  // A row while an integration holds the ticket, or has let go of it in this attendance (it does
  // not take the ticket again); resolving the ticket removes it. session_id is typebot's.
  await knex.schema.createTable('integration_sessions', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE').unique();
    t.integer('integration_id').notNullable().references('id').inTable('queue_integrations').onDelete('CASCADE').index();
    t.boolean('active').notNullable().defaultTo(true);
    t.string('session_id', 200);
    // The message that started the hold: an older one (a late replay) is never answered.
    t.integer('first_message_id').notNullable();
    t.timestamp('last_activity_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('integration_sessions');
  await knex.schema.dropTableIfExists('queue_integrations');
}
