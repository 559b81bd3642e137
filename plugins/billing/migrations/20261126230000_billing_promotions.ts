import type { Knex } from 'knex';

/**
 * Promotion codes (issue: self-signup), managed by super users: extra trial days or a discount on
 * the first invoice, until an expiry date, for a number of signups. `promotion_redemptions` keeps
 * which company used which code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('promotions', (t) => {
    t.increments('id');
    // Upper case, so PROMO10 and promo10 are one code on the whole platform.
    t.string('code', 30).notNullable().unique();
    // trialDays: days added to the 3-day trial; discount: percent off the first invoice.
    t.string('kind', 20).notNullable();
    t.integer('amount').notNullable();
    // YYYY-MM-DD, the last day it is accepted; null: no expiry.
    t.string('expires_at', 10);
    t.integer('uses_left').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('promotion_redemptions', (t) => {
    t.increments('id');
    t.integer('promotion_id').notNullable().references('id').inTable('promotions').onDelete('CASCADE');
    t.integer('company_id').notNullable().unique().references('id').inTable('companies').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('promotion_redemptions');
  await knex.schema.dropTableIfExists('promotions');
}
