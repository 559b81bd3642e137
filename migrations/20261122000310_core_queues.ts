import type { Knex } from 'knex';

/**
 * A chatbot menu's keys are unique among siblings: under one parent option, and on the first level
 * (no parent) of one queue. NULL parents never collide in a plain unique index, hence the partial one.
 */
const ROOT_KEYS = 'queue_options_root_option_unique';
const CHILD_KEYS = 'queue_options_child_option_unique';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('queue_options', (t) => {
    t.unique(['queue_id', 'option'], { indexName: ROOT_KEYS, predicate: knex.whereNull('parent_id') });
    t.unique(['parent_id', 'option'], { indexName: CHILD_KEYS, useConstraint: false });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('queue_options', (t) => {
    t.dropIndex([], ROOT_KEYS);
    t.dropIndex([], CHILD_KEYS);
  });
}
