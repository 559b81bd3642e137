import type { Knex } from 'knex';

/**
 * What the Baileys driver keeps per connection (core/channels/baileys): its WhatsApp Web auth
 * state, one row per key; the LID ↔ phone-number pairs it has seen; and the messages it may be
 * asked to send again. Everything goes with its connection (ON DELETE CASCADE).
 */

function whatsappId(t: Knex.CreateTableBuilder): void {
  t.integer('whatsapp_id').notNullable().references('id').inTable('whatsapps').onDelete('CASCADE');
}

export async function up(knex: Knex): Promise<void> {
  // type 'creds' (key_id 'creds') holds the credentials; every other type is a signal key.
  await knex.schema.createTable('baileys_auth', (t) => {
    whatsappId(t);
    t.string('type', 40).notNullable();
    t.string('key_id', 255).notNullable();
    t.text('value').notNullable(); // JSON written with Baileys' BufferJSON replacer
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['whatsapp_id', 'type', 'key_id']);
  });

  // pn is null while only the LID is known.
  await knex.schema.createTable('baileys_lid_map', (t) => {
    t.increments('id');
    whatsappId(t);
    t.string('lid', 64).notNullable();
    t.string('pn', 64);
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['whatsapp_id', 'lid']);
    t.unique(['whatsapp_id', 'pn']);
  });

  await knex.schema.createTable('baileys_messages', (t) => {
    t.increments('id');
    whatsappId(t);
    t.string('message_id', 128).notNullable();
    t.text('message').notNullable(); // the whole WAMessage, BufferJSON
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['whatsapp_id', 'message_id']);
    t.index(['whatsapp_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('baileys_messages');
  await knex.schema.dropTableIfExists('baileys_lid_map');
  await knex.schema.dropTableIfExists('baileys_auth');
}
