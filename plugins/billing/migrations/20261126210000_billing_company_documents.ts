import type { Knex } from 'knex';

/** The CPF or CNPJ a company signed up with (spec §3 Company signup payload), one per company, unique. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('company_documents', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().unique().references('id').inTable('companies').onDelete('CASCADE');
    // Digits only, so a masked and a plain entry of the same document collide.
    t.string('document', 14).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('company_documents');
}
