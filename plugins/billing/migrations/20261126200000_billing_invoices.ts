import type { Knex } from 'knex';

/** Invoices: one per company and due date (spec §3 Invoice), opened by the daily job, paid once. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invoices', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    // The plan's name when the invoice opened.
    t.string('detail', 255).notNullable();
    t.decimal('value', 10, 2).notNullable();
    t.string('due_date', 10).notNullable(); // YYYY-MM-DD, as companies keep theirs
    // open or paid; 'Vencido' is an open one past its due date, said by the view.
    t.string('status', 20).notNullable().defaultTo('open');
    t.timestamp('paid_at', { useTz: true });
    t.decimal('paid_value', 10, 2);
    // manual (a super user marked it), or the provider's payment kind.
    t.string('paid_by', 20);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    // One invoice a period: the job may run on several nodes, or twice, and opens it once.
    t.unique(['company_id', 'due_date']);
    t.index(['status', 'due_date']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('invoices');
}
