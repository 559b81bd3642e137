import type { Knex } from 'knex';

/** File lists: a text and named files sent together (into a ticket, or by a campaign). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('file_lists', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    t.string('name', 100).notNullable();
    t.text('message').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'name']);
  });
  await knex.schema.createTable('file_list_options', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE').index();
    t.integer('file_list_id').notNullable().references('id').inTable('file_lists').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    // Its place in the list: the files are sent in this order.
    t.integer('position').notNullable().defaultTo(0);
    // The stored name in MediaStorage, its MIME type and the name the user's file had; null until uploaded.
    t.string('path', 255);
    t.string('media_type', 255);
    t.string('media_name', 255);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['file_list_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('file_list_options');
  await knex.schema.dropTableIfExists('file_lists');
}
