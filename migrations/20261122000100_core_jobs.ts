import type { Knex } from 'knex';

/**
 * The job store of the Knex job backend (core/jobs/knex-backend.ts), used on SQLite. On PostgreSQL
 * jobs live in @agendajs/postgres-backend's own `agenda_jobs` table, which that backend creates and
 * migrates itself, so nothing is created there. Dates are epoch milliseconds; data is JSON text.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') return;
  await knex.schema.createTable('jobs', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable();
    t.integer('priority').notNullable().defaultTo(0);
    t.bigInteger('next_run_at');
    t.string('type', 10).notNullable().defaultTo('normal');
    t.bigInteger('locked_at');
    t.bigInteger('last_finished_at');
    t.bigInteger('failed_at');
    t.integer('fail_count');
    t.text('fail_reason');
    t.string('repeat_timezone', 100);
    t.bigInteger('last_run_at');
    t.string('repeat_interval', 255);
    t.text('data').notNullable().defaultTo('{}');
    t.string('repeat_at', 255);
    t.boolean('disabled').notNullable().defaultTo(false);
    t.float('progress');
    t.boolean('fork').notNullable().defaultTo(false);
    t.string('last_modified_by', 255);
    t.bigInteger('debounce_started_at');
    t.bigInteger('start_date');
    t.bigInteger('end_date');
    t.text('skip_days');
    // What getNextJobToRun scans: due jobs of one name, soonest first.
    t.index(['name', 'next_run_at', 'priority'], 'jobs_find_and_lock_index');
    // every() keeps one row per name: saves of type 'single' upsert on it.
    t.unique(['name'], { indexName: 'jobs_single_name_unique', predicate: knex.whereRaw("type = 'single'") });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('jobs');
}
