import type { Knex } from 'knex';

const ORDER_INDEX = 'announcements_status_priority_created_at_index';

/**
 * Announcements (platform-wide, written by super users) and who has read each: one row per user
 * and announcement, so a read stays read for that user and for nobody else.
 *
 * The core's first migration already made an `announcements` table of this shape (before the
 * feature became this plugin); an installation that has it keeps it and its rows, one that does
 * not gets it here.
 */
export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('announcements'))) {
    await knex.schema.createTable('announcements', (t) => {
      t.increments('id');
      // The author's company: where the image is stored.
      t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE').index();
      t.integer('priority').notNullable().defaultTo(3);
      t.string('title', 255).notNullable();
      t.text('text').notNullable();
      t.text('media_path');
      t.string('media_name', 255);
      t.boolean('status').notNullable().defaultTo(true);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  }
  // The top bar's question: the active ones, by priority then newest.
  await knex.schema.alterTable('announcements', (t) => {
    t.index(['status', 'priority', 'created_at'], ORDER_INDEX);
  });
  await knex.schema.createTable('announcement_reads', (t) => {
    t.integer('announcement_id').notNullable().references('id').inTable('announcements').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE').index();
    t.timestamp('read_at', { useTz: true }).notNullable();
    t.primary(['announcement_id', 'user_id']);
  });
}

/** Leaves `announcements` to the core's migration that made it (its down drops it). */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('announcement_reads');
  await knex.schema.alterTable('announcements', (t) => {
    t.dropIndex(['status', 'priority', 'created_at'], ORDER_INDEX);
  });
}
