import type { Knex } from 'knex';

/**
 * One live card subscription a company at each provider, held by the database (so two requests on
 * two servers sharing it make one): a row is reserved as `pending` before the provider is asked,
 * made `active` when it answers, removed when it refuses. And the amount of the Pix charge linked
 * to an open invoice, so a repriced invoice gets a new charge instead of the old one.
 */
export async function up(knex: Knex): Promise<void> {
  // Two live rows of one company made before this (two processes at once) would refuse the index:
  // the newest stays, the others are kept as inactive (cancel them at the provider by hand).
  await knex.raw(
    "update billing_subscriptions set status = 'inactive' where status <> 'inactive' and id not in (select max(id) from billing_subscriptions where status <> 'inactive' group by company_id, provider)",
  );
  // A partial unique index: SQLite and PostgreSQL both take this statement as it is.
  await knex.raw("create unique index billing_subscriptions_one_live on billing_subscriptions (company_id, provider) where status <> 'inactive'");
  await knex.schema.alterTable('invoices', (t) => {
    t.decimal('provider_payment_value', 10, 2);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.dropColumn('provider_payment_value');
  });
  await knex.raw('drop index billing_subscriptions_one_live');
}
