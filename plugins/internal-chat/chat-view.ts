import type { Knex } from 'knex';
import type { ChatMemberView, ChatMessageView, ChatView } from './chat.contract.js';
import { ChatMessage, ChatUser, type Chat } from './chat.model.js';

export type { ChatMessageView, ChatView };

/** The views of these chats, in their order, each with its members by name (one query for all members). */
export async function chatViews(db: Knex, chats: Chat[]): Promise<ChatView[]> {
  if (chats.length === 0) return [];
  const members = (await ChatUser.query(db)
    .join('users', 'users.id', 'chat_users.userId')
    .whereIn('chat_users.chatId', chats.map((c) => c.id))
    .select('chat_users.chatId', 'chat_users.userId', 'chat_users.unreads', 'users.name as userName')
    .orderBy('users.name')
    .orderBy('chat_users.userId')) as unknown as (Pick<ChatUser, 'chatId' | 'userId' | 'unreads'> & { userName: string })[];
  const byChat = new Map<number, ChatMemberView[]>();
  for (const m of members) {
    const list = byChat.get(m.chatId) ?? [];
    list.push({ userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: m.userName } });
    byChat.set(m.chatId, list);
  }
  return chats.map((c) => ({
    id: c.id,
    uuid: c.uuid,
    title: c.title,
    ownerId: c.ownerId,
    users: byChat.get(c.id) ?? [],
    lastMessage: c.lastMessage,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  }));
}

type MessageRow = ChatMessage & { senderName: string | null };

/** Messages of one chat, newest first, with their senders' names; `onlyId` picks one. */
export async function messageViews(db: Knex, chatId: number, page: { limit: number; offset: number; onlyId?: number }): Promise<ChatMessageView[]> {
  const query = ChatMessage.query(db)
    .leftJoin('users', 'users.id', 'chat_messages.senderId')
    .where('chat_messages.chatId', chatId)
    .select('chat_messages.*', 'users.name as senderName')
    .orderBy('chat_messages.id', 'desc')
    .limit(page.limit)
    .offset(page.offset);
  if (page.onlyId !== undefined) query.where('chat_messages.id', page.onlyId);
  const rows = (await query) as MessageRow[];
  return rows.map(toMessageView);
}

function toMessageView(m: MessageRow): ChatMessageView {
  return {
    id: m.id,
    chatId: m.chatId,
    senderId: m.senderId,
    sender: m.senderId !== null && m.senderName !== null ? { id: m.senderId, name: m.senderName } : null,
    message: m.message,
    createdAt: m.createdAt,
  };
}
