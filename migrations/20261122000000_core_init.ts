import type { Knex } from 'knex';

/**
 * The core schema: every entity of spec/core-inbox.md §3. snake_case tables and columns, an indexed
 * company_id on every tenant table, timestamps written by the application as UTC ISO strings.
 */

function timestamps(t: Knex.CreateTableBuilder): void {
  t.timestamp('created_at', { useTz: true }).notNullable();
  t.timestamp('updated_at', { useTz: true }).notNullable();
}

function companyId(t: Knex.CreateTableBuilder): void {
  t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE').index();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plans', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable().unique();
    t.integer('users').notNullable().defaultTo(0);
    t.integer('connections').notNullable().defaultTo(0);
    t.integer('queues').notNullable().defaultTo(0);
    t.decimal('value', 12, 2).notNullable().defaultTo(0);
    for (const flag of [
      'use_campaigns',
      'use_kanban',
      'use_open_ai',
      'use_integrations',
      'use_schedules',
      'use_internal_chat',
      'use_external_api',
    ]) {
      t.boolean(flag).notNullable().defaultTo(true);
    }
    timestamps(t);
  });

  await knex.schema.createTable('companies', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable().unique();
    t.string('email', 255).notNullable().defaultTo('');
    t.string('phone', 50).notNullable().defaultTo('');
    t.integer('plan_id').references('id').inTable('plans').onDelete('RESTRICT').index();
    t.boolean('status').notNullable().defaultTo(true);
    t.string('due_date', 10); // YYYY-MM-DD; null never expires (the platform company)
    t.string('recurrence', 20).notNullable().defaultTo('MENSAL');
    t.text('schedules').notNullable().defaultTo('[]'); // working hours, JSON [{weekday, weekdayEn, startTime, endTime}]
    t.string('billing_customer_id', 100);
    timestamps(t);
  });

  await knex.schema.createTable('queues', (t) => {
    t.increments('id');
    companyId(t);
    t.string('name', 50).notNullable();
    t.string('color', 9).notNullable();
    t.text('greeting_message').notNullable().defaultTo('');
    t.text('completion_message').notNullable().defaultTo('');
    t.text('out_of_hours_message').notNullable().defaultTo('');
    t.text('rating_message').notNullable().defaultTo('');
    t.integer('order_queue');
    t.integer('integration_id');
    t.integer('prompt_id');
    t.text('schedules').notNullable().defaultTo('[]');
    timestamps(t);
    t.unique(['company_id', 'color']);
  });

  await knex.schema.createTable('queue_options', (t) => {
    t.increments('id');
    companyId(t);
    t.integer('queue_id').notNullable().references('id').inTable('queues').onDelete('CASCADE').index();
    t.integer('parent_id').references('id').inTable('queue_options').onDelete('CASCADE').index();
    t.string('title', 100).notNullable();
    t.text('message').notNullable().defaultTo('');
    t.string('option', 20).notNullable();
    timestamps(t);
  });

  await knex.schema.createTable('whatsapps', (t) => {
    t.increments('id');
    companyId(t);
    t.string('name', 50).notNullable();
    t.string('provider', 20).notNullable().defaultTo('baileys'); // the driver: baileys or simulator
    t.string('status', 20).notNullable().defaultTo('DISCONNECTED');
    t.text('qrcode').notNullable().defaultTo('');
    t.integer('retries').notNullable().defaultTo(0);
    t.string('number', 50).notNullable().defaultTo('');
    t.boolean('is_default').notNullable().defaultTo(false);
    t.text('greeting_message').notNullable().defaultTo('');
    t.text('complation_message').notNullable().defaultTo('');
    t.text('out_of_hours_message').notNullable().defaultTo('');
    t.text('rating_message').notNullable().defaultTo('');
    t.text('expires_inactive_message').notNullable().defaultTo('');
    t.integer('expires_ticket').notNullable().defaultTo(0);
    t.integer('time_use_bot_queues').notNullable().defaultTo(0);
    t.integer('max_use_bot_queues').notNullable().defaultTo(3);
    t.integer('time_to_transfer');
    t.integer('transfer_queue_id').references('id').inTable('queues').onDelete('SET NULL');
    t.integer('prompt_id');
    t.integer('integration_id');
    t.string('token', 100).unique(); // external API bearer; null when unset, never empty
    timestamps(t);
    t.unique(['company_id', 'name']);
  });

  await knex.schema.createTable('whatsapp_queues', (t) => {
    t.integer('whatsapp_id').notNullable().references('id').inTable('whatsapps').onDelete('CASCADE');
    t.integer('queue_id').notNullable().references('id').inTable('queues').onDelete('CASCADE').index();
    t.primary(['whatsapp_id', 'queue_id']);
  });

  await knex.schema.createTable('users', (t) => {
    t.increments('id');
    companyId(t);
    t.string('name', 50).notNullable();
    t.string('email', 255).notNullable().unique(); // login is by e-mail across the platform
    t.string('password_hash', 255).notNullable();
    t.integer('token_version').notNullable().defaultTo(0);
    t.string('refresh_token_id', 64); // the one refresh token of the current session (rotated on use)
    t.string('previous_refresh_token_id', 64); // the one it replaced: still accepted briefly (tabs refreshing at once)
    t.timestamp('refresh_rotated_at', { useTz: true });
    t.string('profile', 20).notNullable().defaultTo('user');
    t.boolean('super').notNullable().defaultTo(false);
    t.boolean('financial').notNullable().defaultTo(false);
    t.boolean('online').notNullable().defaultTo(false);
    t.string('all_ticket', 10).notNullable().defaultTo('disabled');
    t.integer('whatsapp_id').references('id').inTable('whatsapps').onDelete('SET NULL');
    timestamps(t);
  });

  await knex.schema.createTable('user_queues', (t) => {
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('queue_id').notNullable().references('id').inTable('queues').onDelete('CASCADE').index();
    t.primary(['user_id', 'queue_id']);
  });

  await knex.schema.createTable('settings', (t) => {
    t.increments('id');
    companyId(t);
    t.string('key', 100).notNullable();
    t.text('value').notNullable().defaultTo('');
    timestamps(t);
    t.unique(['company_id', 'key']);
  });

  await knex.schema.createTable('contacts', (t) => {
    t.increments('id');
    companyId(t);
    t.uuid('uuid').notNullable().unique();
    t.string('name', 100).notNullable();
    t.string('number', 50).notNullable();
    t.string('email', 255).notNullable().defaultTo('');
    t.text('profile_pic_url').notNullable().defaultTo('');
    t.boolean('is_group').notNullable().defaultTo(false);
    t.integer('whatsapp_id').references('id').inTable('whatsapps').onDelete('SET NULL');
    timestamps(t);
    t.unique(['company_id', 'number']);
    t.index(['company_id', 'name']);
  });

  await knex.schema.createTable('contact_custom_fields', (t) => {
    t.increments('id');
    companyId(t);
    t.integer('contact_id').notNullable().references('id').inTable('contacts').onDelete('CASCADE').index();
    t.string('name', 100).notNullable();
    t.text('value').notNullable().defaultTo('');
    timestamps(t);
  });

  await knex.schema.createTable('tickets', (t) => {
    t.increments('id');
    companyId(t);
    t.uuid('uuid').notNullable().unique();
    t.string('status', 10).notNullable().defaultTo('pending');
    t.integer('unread_messages').notNullable().defaultTo(0);
    t.text('last_message').notNullable().defaultTo('');
    t.boolean('is_group').notNullable().defaultTo(false);
    t.boolean('from_me').notNullable().defaultTo(false);
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    t.integer('contact_id').notNullable().references('id').inTable('contacts').onDelete('CASCADE').index();
    t.integer('whatsapp_id').references('id').inTable('whatsapps').onDelete('SET NULL');
    t.integer('queue_id').references('id').inTable('queues').onDelete('SET NULL');
    t.integer('queue_option_id').references('id').inTable('queue_options').onDelete('SET NULL');
    t.boolean('chatbot').notNullable().defaultTo(false);
    t.boolean('use_integration').notNullable().defaultTo(false);
    t.integer('integration_id');
    t.integer('prompt_id');
    t.integer('amount_used_bot_queues').notNullable().defaultTo(0);
    timestamps(t);
    // The ticket list: by status, newest first, optionally narrowed by queue or user.
    t.index(['company_id', 'status', 'updated_at']);
    t.index(['company_id', 'queue_id', 'status', 'updated_at']);
    t.index(['company_id', 'user_id', 'status', 'updated_at']);
  });
  // One open (or pending) ticket per contact and connection; closed tickets are history.
  await knex.raw(
    `CREATE UNIQUE INDEX tickets_one_open_per_contact ON tickets (company_id, contact_id, whatsapp_id)
     WHERE status IN ('open', 'pending')`,
  );

  await knex.schema.createTable('messages', (t) => {
    t.increments('id');
    companyId(t);
    t.string('wid', 255).notNullable(); // the provider's message id
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE');
    t.integer('contact_id').references('id').inTable('contacts').onDelete('SET NULL');
    t.integer('queue_id').references('id').inTable('queues').onDelete('SET NULL');
    t.text('body').notNullable().defaultTo('');
    t.boolean('from_me').notNullable().defaultTo(false);
    t.boolean('read').notNullable().defaultTo(false);
    t.integer('ack').notNullable().defaultTo(0);
    t.string('media_type', 30);
    t.text('media_path');
    t.string('media_name', 255);
    t.boolean('is_deleted').notNullable().defaultTo(false);
    t.boolean('is_edited').notNullable().defaultTo(false);
    t.integer('quoted_msg_id').references('id').inTable('messages').onDelete('SET NULL');
    t.string('remote_jid', 255);
    t.string('participant', 255);
    t.text('data_json');
    timestamps(t);
    t.unique(['company_id', 'wid']); // a replayed provider event never stores a message twice
    t.index(['ticket_id', 'created_at', 'id']); // message paging, newest first
  });

  await knex.schema.createTable('ticket_notes', (t) => {
    t.increments('id');
    companyId(t);
    t.text('note').notNullable();
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    t.integer('contact_id').notNullable().references('id').inTable('contacts').onDelete('CASCADE').index();
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE').index();
    timestamps(t);
  });

  await knex.schema.createTable('ticket_tracking', (t) => {
    t.increments('id');
    companyId(t);
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE').index();
    t.integer('whatsapp_id').references('id').inTable('whatsapps').onDelete('SET NULL');
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    t.integer('queue_id').references('id').inTable('queues').onDelete('SET NULL');
    for (const at of ['queued_at', 'started_at', 'finished_at', 'rating_at', 'chatbot_at']) {
      t.timestamp(at, { useTz: true });
    }
    t.boolean('rated').notNullable().defaultTo(false);
    t.integer('rate');
    timestamps(t);
    t.index(['company_id', 'created_at']);
  });

  await knex.schema.createTable('tags', (t) => {
    t.increments('id');
    companyId(t);
    t.string('name', 100).notNullable();
    t.string('color', 9).notNullable().defaultTo('#5C59A0');
    t.integer('kanban').notNullable().defaultTo(0);
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    timestamps(t);
  });

  await knex.schema.createTable('ticket_tags', (t) => {
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE');
    t.integer('tag_id').notNullable().references('id').inTable('tags').onDelete('CASCADE').index();
    t.primary(['ticket_id', 'tag_id']);
  });

  await knex.schema.createTable('quick_messages', (t) => {
    t.increments('id');
    companyId(t);
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    t.string('shortcode', 100).notNullable();
    t.text('message').notNullable().defaultTo('');
    t.text('media_path');
    t.string('media_name', 255);
    timestamps(t);
  });

  // Platform content kept by super users: helps are global, announcements reach every company.
  await knex.schema.createTable('helps', (t) => {
    t.increments('id');
    t.string('title', 255).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('video', 255).notNullable().defaultTo('');
    t.text('link').notNullable().defaultTo('');
    timestamps(t);
  });

  await knex.schema.createTable('announcements', (t) => {
    t.increments('id');
    companyId(t);
    t.integer('priority').notNullable().defaultTo(3);
    t.string('title', 255).notNullable();
    t.text('text').notNullable();
    t.text('media_path');
    t.string('media_name', 255);
    t.boolean('status').notNullable().defaultTo(true);
    timestamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'announcements',
    'helps',
    'quick_messages',
    'ticket_tags',
    'tags',
    'ticket_tracking',
    'ticket_notes',
    'messages',
    'tickets',
    'contact_custom_fields',
    'contacts',
    'settings',
    'user_queues',
    'users',
    'whatsapp_queues',
    'whatsapps',
    'queue_options',
    'queues',
    'companies',
    'plans',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
