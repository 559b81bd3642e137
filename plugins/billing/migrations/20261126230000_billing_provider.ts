import type { Knex } from 'knex';

/**
 * A payment provider's records (spec §3 Subscription row): each company's customer at the provider,
 * its card subscriptions, the webhook events already handled (a redelivered one changes nothing),
 * and the provider's payment that settles an invoice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('billing_customers', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.string('provider', 20).notNullable();
    t.string('customer_id', 100).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    // One customer a company at each provider: two clicks on 'Criar Cliente' make one.
    t.unique(['company_id', 'provider']);
    t.unique(['provider', 'customer_id']);
  });
  await knex.schema.createTable('billing_subscriptions', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.string('provider', 20).notNullable();
    t.string('subscription_id', 100).notNullable();
    t.string('customer_id', 100).notNullable();
    t.integer('plan_id').references('id').inTable('plans').onDelete('SET NULL');
    // active, or inactive once removed (by the company or at the provider).
    t.string('status', 20).notNullable().defaultTo('active');
    t.decimal('value', 10, 2).notNullable();
    // What the provider tells of the card: never its number.
    t.string('card_last4', 4);
    t.string('card_brand', 30);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['provider', 'subscription_id']);
    t.index(['company_id', 'status']);
  });
  await knex.schema.createTable('billing_provider_events', (t) => {
    t.increments('id');
    t.string('provider', 20).notNullable();
    t.string('event_id', 200).notNullable();
    t.string('event', 60).notNullable();
    t.string('payment_id', 100);
    t.integer('invoice_id').references('id').inTable('invoices').onDelete('SET NULL');
    // What the event did: paid, amount-mismatch, already-paid, no-invoice, overdue, ignored, …
    t.string('outcome', 40).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['provider', 'event_id']);
  });
  await knex.schema.alterTable('invoices', (t) => {
    // The provider's payment (a subscription's charge or a Pix charge) that pays this invoice.
    t.string('provider_payment_id', 100).unique();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.dropUnique(['provider_payment_id']);
    t.dropColumn('provider_payment_id');
  });
  await knex.schema.dropTableIfExists('billing_provider_events');
  await knex.schema.dropTableIfExists('billing_subscriptions');
  await knex.schema.dropTableIfExists('billing_customers');
}
