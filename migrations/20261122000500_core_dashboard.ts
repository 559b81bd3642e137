import type { Knex } from 'knex';

/**
 * The dashboard reads a company's attendances by when they finished (count, support time and
 * ratings per attendant) and by when they started (wait time, attendances per user). Both indexes
 * carry the columns those figures need, so a period of 100,000 attendances is counted from the
 * index alone. Attendances by creation day ((company_id, created_at), the per-day chart) and
 * contacts by creation day have their indexes already.
 */
const INDEXES = [
  { name: 'ticket_tracking_dashboard_finished', columns: ['company_id', 'finished_at', 'user_id', 'started_at', 'rating_at', 'rate'] },
  { name: 'ticket_tracking_dashboard_started', columns: ['company_id', 'started_at', 'user_id', 'queued_at'] },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ticket_tracking', (t) => {
    for (const index of INDEXES) t.index(index.columns, index.name);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ticket_tracking', (t) => {
    for (const index of INDEXES) t.dropIndex(index.columns, index.name);
  });
}
