/**
 * The internal chat API's answers and live frames, declared once for the server and the plugin's
 * pages (which import them as types). No imports, so a page pulls in nothing of the server.
 */

/** A member of a conversation and how many of its messages they have not read. */
export interface ChatMemberView {
  userId: number;
  unreads: number;
  user: { id: number; name: string };
}

/** A conversation as the API and the live frames show it (spec §3, Chat). */
export interface ChatView {
  id: number;
  uuid: string;
  title: string;
  /** null once the owner's user was removed: nobody edits the chat any more. */
  ownerId: number | null;
  /** Every member, the owner among them, by name. */
  users: ChatMemberView[];
  /** The text of the newest message ('' before the first one). */
  lastMessage: string;
  createdAt: string;
  /** The last message's time (or the last edit's): the list's order. */
  updatedAt: string;
}

/** A message of a conversation (spec §3, ChatMessage). */
export interface ChatMessageView {
  id: number;
  chatId: number;
  senderId: number | null;
  /** null once the sender's user was removed. */
  sender: { id: number; name: string } | null;
  message: string;
  createdAt: string;
}

/** GET /chats: `records` newest first. */
export interface ChatsPage {
  records: ChatView[];
  count: number;
  hasMore: boolean;
}

/** GET /chats/:id/messages: page 1 holds the newest messages, each page in time order. */
export interface ChatMessagesPage {
  records: ChatMessageView[];
  count: number;
  hasMore: boolean;
}

/**
 * company-{id}-chat-user-{userId}, to that user only: a chat they see appeared (created with them,
 * or they were added) or changed (title, members, someone's read mark).
 */
export type ChatUserEvent = { action: 'create' | 'update'; chat: ChatView };

/**
 * company-{id}-chat, to the chat's members: a new message somewhere (the menu's dot and sound, the
 * list's order), or the chat is gone for them (deleted, or they were taken out of it).
 */
export type ChatListEvent = { action: 'new-message'; chat: ChatView; message: ChatMessageView } | { action: 'delete'; chatId: number; uuid: string };

/** company-{id}-chat-{chatId}, to the chat's members: the open conversation's new message. */
export type ChatRoomEvent = { action: 'new-message'; chat: ChatView; message: ChatMessageView };

export const chatUserChannel = (companyId: number, userId: number) => `company-${companyId}-chat-user-${userId}`;
export const chatListChannel = (companyId: number) => `company-${companyId}-chat`;
export const chatRoomChannel = (companyId: number, chatId: number) => `company-${companyId}-chat-${chatId}`;
