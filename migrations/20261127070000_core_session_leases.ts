import type { Knex } from 'knex';

/**
 * Which node runs each connection's WhatsApp session (DESIGN §4): the owner's id, a fencing token
 * that grows with every acquisition (a status write of an older owner carries an older token and is
 * refused) and the expiry in milliseconds of the database clock, which every node reads alike.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessionLeases', (t) => {
    t.integer('connectionId').primary().references('id').inTable('whatsapps').onDelete('CASCADE');
    /** null once released: free at once. */
    t.string('nodeId', 255).nullable();
    t.bigInteger('token').notNullable();
    t.bigInteger('expiresAt').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessionLeases');
}
