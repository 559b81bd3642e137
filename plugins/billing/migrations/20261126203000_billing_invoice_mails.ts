import type { Knex } from 'knex';

/** When the company was told of the invoice, and reminded before its due date (null: not yet). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.timestamp('notified_at', { useTz: true });
    t.timestamp('reminded_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.dropColumn('notified_at');
    t.dropColumn('reminded_at');
  });
}
