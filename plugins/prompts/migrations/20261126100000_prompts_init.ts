import type { Knex } from 'knex';

/** AI prompts (spec: Prompt entity) and which tickets a prompt has held in their current attendance. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('prompts', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.text('prompt').notNullable();
    // Any OpenAI-compatible server: its chat-completions base URL and model.
    t.string('base_url', 500).notNullable();
    t.string('model', 100).notNullable();
    // Sealed with the plugin's key (app.secrets); never sent to the browser.
    t.text('api_key').notNullable();
    t.string('voice', 50).notNullable().defaultTo('texto');
    t.text('voice_key').notNullable().defaultTo('');
    t.string('voice_region', 50).notNullable().defaultTo('');
    t.integer('max_tokens').notNullable().defaultTo(100);
    t.float('temperature').notNullable().defaultTo(1);
    t.integer('max_messages').notNullable().defaultTo(10);
    // The queue a customer is handed to: by the transfer phrase, or when the server fails.
    t.integer('queue_id').references('id').inTable('queues').onDelete('SET NULL');
    t.bigInteger('prompt_tokens').notNullable().defaultTo(0);
    t.bigInteger('completion_tokens').notNullable().defaultTo(0);
    t.bigInteger('total_tokens').notNullable().defaultTo(0);
    t.text('last_error');
    t.timestamp('last_error_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'name']);
  });
  // A row while a prompt holds the ticket or has let go of it in this attendance (it does not
  // take the ticket again); resolving the ticket removes it.
  await knex.schema.createTable('prompt_sessions', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE').unique();
    t.integer('prompt_id').notNullable().references('id').inTable('prompts').onDelete('CASCADE').index();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('prompt_sessions');
  await knex.schema.dropTableIfExists('prompts');
}
