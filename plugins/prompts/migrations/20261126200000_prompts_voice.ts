import type { Knex } from 'knex';

/**
 * Voice notes: the model that transcribes a customer's (on the prompt's own server), and the
 * speech endpoint that speaks the answers when it is not the region's (a self-hosted or local one).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('prompts', (t) => {
    t.string('transcription_model', 100).notNullable().defaultTo('whisper-1');
    t.string('voice_endpoint', 500).notNullable().defaultTo('');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('prompts', (t) => {
    t.dropColumn('voice_endpoint');
    t.dropColumn('transcription_model');
  });
}
