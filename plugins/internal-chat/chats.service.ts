import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ErrorCode, ForbiddenError, isPostgres, NotFoundError, type AuthUser, type PluginApp } from 'atende/plugin';
import { chatListChannel, chatRoomChannel, chatUserChannel, type ChatListEvent, type ChatMessagesPage, type ChatRoomEvent, type ChatsPage, type ChatUserEvent } from './chat.contract.js';
import { Chat, ChatMessage, ChatUser } from './chat.model.js';
import { chatViews, messageViews, type ChatMessageView, type ChatView } from './chat-view.js';
import { CHATS_PAGE_SIZE, MESSAGES_PAGE_SIZE, type CreateChatInput, type UpdateChatInput } from './chats.schema.js';

/** A route's :id: the chat's numeric id or its uuid (the page's address, /chats/{uuid}). */
export type ChatKey = { id: number } | { uuid: string };

function notFound(): NotFoundError {
  return new NotFoundError(ErrorCode.ERR_NO_CHAT_FOUND, 'Chat not found');
}

/** New members, none of whom has anything unread (one insert each: Objection batches only on PostgreSQL). */
async function addMembers(trx: Knex.Transaction, chatId: number, userIds: number[]): Promise<void> {
  for (const userId of userIds) await ChatUser.query(trx).insert({ chatId, userId, unreads: 0 });
}

/**
 * Internal chat (spec: Internal chat page, Chat and ChatMessage entities). Conversations between
 * users of one company: only members read a chat and its messages (anyone else gets 404, as for a
 * chat that does not exist), only its owner renames it, changes its members or deletes it (403).
 * Live frames go to the members' own sockets only.
 */
export class ChatsService {
  constructor(private readonly app: PluginApp) {}

  // ---- reads ----------------------------------------------------------------------------------

  /** GET /chats: the caller's chats, latest activity first, CHATS_PAGE_SIZE a page. */
  async list(actor: AuthUser, pageNumber: number): Promise<ChatsPage> {
    const mine = () =>
      Chat.query(this.app.db)
        .where('chats.companyId', actor.companyId)
        .whereExists(ChatUser.query(this.app.db).whereColumn('chat_users.chatId', 'chats.id').where('chat_users.userId', actor.id));
    const offset = (pageNumber - 1) * CHATS_PAGE_SIZE;
    const [chats, count] = await Promise.all([
      mine().orderBy('chats.updatedAt', 'desc').orderBy('chats.id', 'desc').limit(CHATS_PAGE_SIZE).offset(offset),
      mine().resultSize(),
    ]);
    return { records: await chatViews(this.app.db, chats), count, hasMore: offset + chats.length < count };
  }

  /** GET /chats/:id (the dialog's edit, a page opened by its address). */
  async show(actor: AuthUser, key: ChatKey): Promise<ChatView> {
    return this.view(await this.memberOf(this.app.db, actor, key));
  }

  /** GET /chats/:id/messages: page 1 holds the newest MESSAGES_PAGE_SIZE messages; each page in time order. */
  async messages(actor: AuthUser, key: ChatKey, pageNumber: number): Promise<ChatMessagesPage> {
    const chat = await this.memberOf(this.app.db, actor, key);
    const offset = (pageNumber - 1) * MESSAGES_PAGE_SIZE;
    const [records, count] = await Promise.all([
      messageViews(this.app.db, chat.id, { limit: MESSAGES_PAGE_SIZE, offset }),
      ChatMessage.query(this.app.db).where('chatId', chat.id).resultSize(),
    ]);
    return { records: records.reverse(), count, hasMore: offset + records.length < count };
  }

  // ---- writes ---------------------------------------------------------------------------------

  /** POST /chats: the caller owns it and is one of its members, with the users chosen. */
  async create(actor: AuthUser, input: CreateChatInput): Promise<ChatView> {
    const members = await this.companyMembers(actor, input.users);
    const chat = await this.app.db.transaction(async (trx) => {
      const created = await Chat.query(trx).insertAndFetch({
        companyId: actor.companyId,
        uuid: randomUUID(),
        title: input.title,
        ownerId: actor.id,
        lastMessage: '',
      });
      await addMembers(trx, created.id, members);
      return created;
    });
    const view = await this.view(chat);
    this.toUsers(actor.companyId, members, 'create', view);
    return view;
  }

  /**
   * PUT /chats/:id (owner only): a new title, and/or the members (replacing them; the owner always
   * stays, and those who stay keep their unread counts).
   */
  async update(actor: AuthUser, key: ChatKey, input: UpdateChatInput): Promise<ChatView> {
    const wanted = input.users && (await this.companyMembers(actor, input.users));
    const { chat, before } = await this.app.db.transaction(async (trx) => {
      const found = await this.ownedBy(trx, actor, key);
      const current = (await ChatUser.query(trx).where('chatId', found.id)).map((m) => m.userId);
      if (wanted) {
        const keep = new Set([...wanted, ...(found.ownerId === null ? [] : [found.ownerId])]);
        const gone = current.filter((userId) => !keep.has(userId));
        const added = [...keep].filter((userId) => !current.includes(userId));
        if (gone.length > 0) await ChatUser.query(trx).where('chatId', found.id).whereIn('userId', gone).delete();
        await addMembers(trx, found.id, added);
      }
      const patched = await Chat.query(trx).patchAndFetchById(found.id, { ...(input.title !== undefined && { title: input.title }) });
      return { chat: patched, before: current };
    });
    const view = await this.view(chat);
    const after = view.users.map((m) => m.userId);
    this.toUsers(actor.companyId, after.filter((userId) => before.includes(userId)), 'update', view);
    this.toUsers(actor.companyId, after.filter((userId) => !before.includes(userId)), 'create', view);
    this.toList(actor.companyId, before.filter((userId) => !after.includes(userId)), { action: 'delete', chatId: chat.id, uuid: chat.uuid });
    return view;
  }

  /** DELETE /chats/:id (owner only): its members and messages go with it. */
  async remove(actor: AuthUser, key: ChatKey): Promise<void> {
    const { chat, members } = await this.app.db.transaction(async (trx) => {
      const found = await this.ownedBy(trx, actor, key);
      const current = (await ChatUser.query(trx).where('chatId', found.id)).map((m) => m.userId);
      await Chat.query(trx).deleteById(found.id);
      return { chat: found, members: current };
    });
    this.toList(actor.companyId, members, { action: 'delete', chatId: chat.id, uuid: chat.uuid });
  }

  /** POST /chats/:id/read: the caller has read the chat. A userId in the body must be the caller's (403). */
  async markRead(actor: AuthUser, key: ChatKey, userId: number | undefined): Promise<ChatView> {
    if (userId !== undefined && userId !== actor.id) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION, 'A read mark is only for yourself');
    const chat = await this.memberOf(this.app.db, actor, key);
    // Only the reader's own count changes: other members are not told (their counts are theirs).
    await ChatUser.query(this.app.db).where({ chatId: chat.id, userId: actor.id }).patch({ unreads: 0 });
    const view = await this.view(chat);
    this.toUsers(actor.companyId, [actor.id], 'update', view);
    return view;
  }

  /**
   * POST /chats/:id/messages: stored with the chat's last message and every other member's unread
   * count in one transaction; the sender has read the chat by writing in it.
   */
  async send(actor: AuthUser, key: ChatKey, text: string): Promise<ChatMessageView> {
    const { chat, messageId } = await this.app.db.transaction(async (trx) => {
      const found = await this.memberOf(trx, actor, key, true);
      const created = await ChatMessage.query(trx).insert({ chatId: found.id, senderId: actor.id, message: text });
      const touched = await Chat.query(trx).patchAndFetchById(found.id, { lastMessage: text });
      await ChatUser.query(trx).where('chatId', found.id).whereNot('userId', actor.id).increment('unreads', 1);
      await ChatUser.query(trx).where({ chatId: found.id, userId: actor.id }).patch({ unreads: 0 });
      return { chat: touched, messageId: created.id };
    });
    const [message] = await messageViews(this.app.db, chat.id, { limit: 1, offset: 0, onlyId: messageId });
    const view = await this.view(chat);
    const members = view.users.map((m) => m.userId);
    const event: ChatRoomEvent & ChatListEvent = { action: 'new-message', chat: view, message: message! };
    this.toList(actor.companyId, members, event);
    this.app.realtime.publishToUsers(actor.companyId, chatRoomChannel(actor.companyId, chat.id), event, members);
    return message!;
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** The chat of the caller's company of which the caller is a member (locked on PostgreSQL when asked), or 404. */
  private async memberOf(db: Knex, actor: AuthUser, key: ChatKey, lock = false): Promise<Chat> {
    const query = Chat.query(db)
      .where('chats.companyId', actor.companyId)
      .where(('id' in key ? { 'chats.id': key.id } : { 'chats.uuid': key.uuid }) as Record<string, number | string>)
      .whereExists(ChatUser.query(db).whereColumn('chat_users.chatId', 'chats.id').where('chat_users.userId', actor.id))
      .first();
    const chat = await (lock && isPostgres(db) ? query.forUpdate() : query);
    if (!chat) throw notFound();
    return chat;
  }

  /** As memberOf, locked, and only for its owner (403 for the other members). */
  private async ownedBy(trx: Knex.Transaction, actor: AuthUser, key: ChatKey): Promise<Chat> {
    const chat = await this.memberOf(trx, actor, key, true);
    if (chat.ownerId !== actor.id) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION, 'Only the owner of this chat may change or delete it');
    return chat;
  }

  /** The caller and the chosen users, each a user of the caller's company (404 ERR_NO_USER_FOUND naming the others). */
  private async companyMembers(actor: AuthUser, userIds: number[]): Promise<number[]> {
    const known = new Set((await this.app.services.users.listNames(actor)).map((u) => u.id));
    const strangers = userIds.filter((userId) => !known.has(userId));
    if (strangers.length > 0) throw new NotFoundError(ErrorCode.ERR_NO_USER_FOUND, `Not users of this company: ${strangers.join(', ')}`);
    return [...new Set([actor.id, ...userIds])];
  }

  private async view(chat: Chat): Promise<ChatView> {
    const [view] = await chatViews(this.app.db, [chat]);
    return view!;
  }

  private toUsers(companyId: number, userIds: number[], action: ChatUserEvent['action'], chat: ChatView): void {
    for (const userId of userIds) {
      const event: ChatUserEvent = { action, chat };
      this.app.realtime.publishToUsers(companyId, chatUserChannel(companyId, userId), event, [userId]);
    }
  }

  private toList(companyId: number, userIds: number[], event: ChatListEvent): void {
    this.app.realtime.publishToUsers(companyId, chatListChannel(companyId), event, userIds);
  }
}
