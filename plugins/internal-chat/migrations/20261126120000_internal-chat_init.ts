import type { Knex } from 'knex';

/** Internal chat: conversations between users of one company, their members and their messages. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chats', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.uuid('uuid').notNullable().unique();
    t.string('title', 100).notNullable();
    // A removed owner leaves the conversation to its members, with nobody to edit it.
    t.integer('owner_id').references('id').inTable('users').onDelete('SET NULL');
    t.text('last_message').notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'updated_at']);
  });
  await knex.schema.createTable('chat_users', (t) => {
    t.increments('id');
    t.integer('chat_id').notNullable().references('id').inTable('chats').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE').index();
    t.integer('unreads').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['chat_id', 'user_id']);
  });
  await knex.schema.createTable('chat_messages', (t) => {
    t.increments('id');
    t.integer('chat_id').notNullable().references('id').inTable('chats').onDelete('CASCADE');
    t.integer('sender_id').references('id').inTable('users').onDelete('SET NULL');
    t.text('message').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    // A page of a conversation: its newest messages first.
    t.index(['chat_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('chat_messages');
  await knex.schema.dropTableIfExists('chat_users');
  await knex.schema.dropTableIfExists('chats');
}
