import type { Knex } from 'knex';

/**
 * What a voice note says, as text: a customer's transcribed by a bot, or the text a bot's own voice
 * answer was spoken from. Agents read it under the audio; a bot reads it as the message's text.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.text('transcript');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.dropColumn('transcript');
  });
}
