import type { Knex } from 'knex';

/**
 * Which bot wrote an outgoing message (a conversation step's name, `prompts.answer`), so agents
 * see the bot's part of the conversation marked; null for agents, the phone and customers.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.string('bot', 100);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.dropColumn('bot');
  });
}
