import type { Knex } from 'knex';

/**
 * When billing blocked the company for an unpaid invoice (null when not blocked): its WhatsApp
 * sessions stay stopped, its users meet the expired-subscription rule, until it pays.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('companies', (t) => {
    t.timestamp('blocked_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('companies', (t) => {
    t.dropColumn('blocked_at');
  });
}
