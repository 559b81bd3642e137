import type { Knex } from 'knex';
import type { MediaType } from '../../channels/driver.js';
import { lastMessageLabel } from '../pipeline/store-message.js';

interface NewestMessage {
  body: string;
  mediaType: MediaType | null;
  mediaName: string | null;
  fromMe: boolean | number;
}

/**
 * A ticket's lastMessage (and its direction) from its newest message still shown, '' when every
 * one is deleted: a deleted or edited last message never lingers in the lists. The ticket keeps
 * its place there (updatedAt unchanged). Answers whether the ticket changed.
 */
export async function refreshLastMessage(db: Knex, ticketId: number): Promise<boolean> {
  const [ticket, newest] = (await Promise.all([
    db('tickets').where({ id: ticketId }).first('lastMessage', 'fromMe'),
    db('messages').where({ ticketId, isDeleted: false }).orderBy('createdAt', 'desc').orderBy('id', 'desc').first('body', 'mediaType', 'mediaName', 'fromMe'),
  ])) as [{ lastMessage: string; fromMe: boolean | number } | undefined, NewestMessage | undefined];
  if (!ticket) return false;
  const lastMessage = newest ? lastMessageLabel({ body: newest.body, mediaType: newest.mediaType, media: newest.mediaName ? { name: newest.mediaName } : undefined }) : '';
  const fromMe = newest ? Boolean(newest.fromMe) : Boolean(ticket.fromMe);
  if (lastMessage === ticket.lastMessage && fromMe === Boolean(ticket.fromMe)) return false;
  await db('tickets').where({ id: ticketId }).update({ lastMessage, fromMe });
  return true;
}
