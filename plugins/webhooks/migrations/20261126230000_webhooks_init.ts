import type { Knex } from 'knex';

/** Outbound webhooks: the endpoints admins register and one delivery row per event and endpoint. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE').index();
    t.string('url', 2000).notNullable();
    // JSON array of the webhook event names the endpoint wants.
    t.text('events').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    // The signing secret, sealed (AES-256-GCM under the plugin's key): admins may reveal it.
    t.text('secret').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
        t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE').index();
    t.integer('endpoint_id').notNullable().references('id').inTable('webhook_endpoints').onDelete('CASCADE');
    // What the receiver deduplicates on (X-Atende-Delivery).
    t.string('event_id', 36).notNullable().unique();
    t.string('event', 40).notNullable();
    // `ticket:<id>` or `contact:<id>`: deliveries of one key go out one after another.
    t.string('order_key', 60).notNullable();
    // sha256 of the domain event: the same event recorded twice (a retried hook) makes one row.
    t.string('source_key', 64).notNullable();
    // Microseconds when the event was emitted, increasing within a process: the order of a key's deliveries.
    t.bigInteger('event_seq').notNullable();
    // The JSON body, fixed when the event happened: every attempt sends the same bytes.
    t.text('payload').notNullable();
    t.string('status', 10).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('last_status_code');
    t.string('last_error', 500);
    t.timestamp('last_attempt_at', { useTz: true });
    t.timestamp('next_attempt_at', { useTz: true }).notNullable();
    // Given up (status failed) when an attempt fails after this.
    t.timestamp('expires_at', { useTz: true }).notNullable();
    // While an attempt is under way; a crashed one is taken again once this has passed.
    t.timestamp('leased_until', { useTz: true });
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['endpoint_id', 'source_key']);
    t.index(['endpoint_id', 'order_key', 'status', 'event_seq']);
    t.index(['status', 'next_attempt_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_endpoints');
}
