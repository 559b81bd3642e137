import type { Knex } from 'knex';

/**
 * Each attendance keeps its durations, in minutes: the wait (queued → taken) once it is taken and
 * the support time (taken → rating question, or end) once it ends. The dashboard then sums stored
 * numbers over an index instead of computing two timestamps' difference for every attendance of
 * the period. The database writes them whenever those timestamps change, whoever writes the row:
 * PostgreSQL as stored generated columns, SQLite (which cannot add a stored generated column) by
 * triggers. Existing rows get theirs here.
 */
const DURATIONS = {
  sqlite: {
    wait: '(julianday(started_at) - julianday(queued_at)) * 1440',
    support: 'CASE WHEN finished_at IS NOT NULL THEN (julianday(coalesce(rating_at, finished_at)) - julianday(started_at)) * 1440 END',
  },
  pg: {
    wait: '(extract(epoch from (started_at - queued_at)) / 60)::double precision',
    support: 'CASE WHEN finished_at IS NOT NULL THEN (extract(epoch from (coalesce(rating_at, finished_at) - started_at)) / 60)::double precision END',
  },
};

/** The dashboard's indexes, before and after: every figure of a period is read from one of them. */
const OLD_INDEXES = [
  { name: 'ticket_tracking_dashboard_finished', columns: ['company_id', 'finished_at', 'user_id', 'started_at', 'rating_at', 'rate'] },
  { name: 'ticket_tracking_dashboard_started', columns: ['company_id', 'started_at', 'user_id', 'queued_at'] },
];
const INDEXES = [
  // Per attendant, each one's period a range: no sort of the period's attendances to group them.
  { name: 'ticket_tracking_dashboard_finished_by_user', columns: ['company_id', 'user_id', 'finished_at', 'started_at', 'support_minutes', 'rate'] },
  { name: 'ticket_tracking_dashboard_started_wait', columns: ['company_id', 'started_at', 'user_id', 'wait_minutes'] },
];

const TRIGGERS = ['ticket_tracking_durations_insert', 'ticket_tracking_durations_update'];

async function indexes(knex: Knex, drop: typeof INDEXES, create: typeof INDEXES): Promise<void> {
  await knex.schema.alterTable('ticket_tracking', (t) => {
    for (const index of drop) t.dropIndex(index.columns, index.name);
  });
  await knex.schema.alterTable('ticket_tracking', (t) => {
    for (const index of create) t.index(index.columns, index.name);
  });
}

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    const { wait, support } = DURATIONS.pg;
    await knex.raw(`ALTER TABLE ticket_tracking ADD COLUMN wait_minutes double precision GENERATED ALWAYS AS (${wait}) STORED`);
    await knex.raw(`ALTER TABLE ticket_tracking ADD COLUMN support_minutes double precision GENERATED ALWAYS AS (${support}) STORED`);
  } else {
    const { wait, support } = DURATIONS.sqlite;
    await knex.schema.alterTable('ticket_tracking', (t) => {
      t.double('wait_minutes');
      t.double('support_minutes');
    });
    await knex.raw(`UPDATE ticket_tracking SET wait_minutes = ${wait}, support_minutes = ${support}`);
    const row = (sql: string) => sql.replace(/\b(queued_at|started_at|finished_at|rating_at)\b/g, 'new.$1');
    const update = `UPDATE ticket_tracking SET wait_minutes = ${row(wait)}, support_minutes = ${row(support)} WHERE id = new.id;`;
    await knex.raw(`CREATE TRIGGER ${TRIGGERS[0]} AFTER INSERT ON ticket_tracking BEGIN ${update} END`);
    await knex.raw(`CREATE TRIGGER ${TRIGGERS[1]} AFTER UPDATE OF queued_at, started_at, finished_at, rating_at ON ticket_tracking BEGIN ${update} END`);
  }
  await indexes(knex, OLD_INDEXES, INDEXES);
}

export async function down(knex: Knex): Promise<void> {
  await indexes(knex, INDEXES, OLD_INDEXES);
  if (knex.client.config.client !== 'pg') {
    for (const trigger of TRIGGERS) await knex.raw(`DROP TRIGGER IF EXISTS ${trigger}`);
  }
  await knex.schema.alterTable('ticket_tracking', (t) => {
    t.dropColumn('wait_minutes');
    t.dropColumn('support_minutes');
  });
}
