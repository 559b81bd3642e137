import { useCallback, useEffect } from 'react';
import { api, useAuth, useInfiniteQuery, useQueryClient, type InfiniteData } from 'atende/web';
import {
  chatListChannel,
  chatUserChannel,
  type ChatListEvent,
  type ChatMessagesPage,
  type ChatsPage,
  type ChatUserEvent,
  type ChatView,
} from '../chat.contract';

export type { ChatMessagesPage, ChatsPage, ChatView };
export type ChatList = InfiniteData<ChatsPage, unknown>;

/** The query keys of the plugin's data: the user's chat list, one chat's messages, one chat by uuid. */
export const chatKeys = {
  list: (userId: number) => ['internal-chat', 'chats', userId] as const,
  messages: (chatId: number) => ['internal-chat', 'messages', chatId] as const,
  chat: (uuid: string) => ['internal-chat', 'chat', uuid] as const,
};

/** The server's order: latest activity first. */
const byLatest = (a: ChatView, b: ChatView) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/** How many of the chat's messages `userId` has not read. */
export function unreadsOf(chat: ChatView, userId: number | undefined): number {
  return chat.users.find((m) => m.userId === userId)?.unreads ?? 0;
}

/** The list with this chat in its place (first page, by latest activity), once. */
export function putChat(list: ChatList | undefined, chat: ChatView): ChatList | undefined {
  if (!list || list.pages.length === 0) return list;
  const known = list.pages.some((p) => p.records.some((c) => c.id === chat.id));
  const pages = list.pages.map((p) => ({ ...p, records: p.records.filter((c) => c.id !== chat.id) }));
  pages[0] = { ...pages[0]!, records: [...pages[0]!.records, chat].sort(byLatest), count: pages[0]!.count + (known ? 0 : 1) };
  return { ...list, pages };
}

export function dropChat(list: ChatList | undefined, chatId: number): ChatList | undefined {
  if (!list) return list;
  const known = list.pages.some((p) => p.records.some((c) => c.id === chatId));
  if (!known) return list;
  return { ...list, pages: list.pages.map((p) => ({ ...p, records: p.records.filter((c) => c.id !== chatId), count: p.count - 1 })) };
}

/** The caller's chats, page by page (30 a page, latest activity first). */
export function useChats() {
  const { user } = useAuth();
  return useInfiniteQuery({
    queryKey: chatKeys.list(user?.id ?? 0),
    queryFn: ({ pageParam, signal }) => api.get<ChatsPage>('/chats', { pageNumber: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last: ChatsPage, pages: ChatsPage[]) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: user !== null,
  });
}

/** Writes one chat into the list (after a save, a read mark). */
export function usePutChat(): (chat: ChatView) => void {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const userId = user?.id ?? 0;
  return useCallback((chat: ChatView) => void queryClient.setQueryData<ChatList>(chatKeys.list(userId), (list) => putChat(list, chat)), [queryClient, userId]);
}

/**
 * Keeps the chat list live: chats that appear or change (the user's own channel), new messages and
 * deleted chats (the company's chat channel, which only the chat's members hear). `onDelete` is
 * told of a chat that is gone for the user. Merges are idempotent: several mounted hooks are fine.
 */
export function useLiveChats(onDelete?: (event: { chatId: number; uuid: string }) => void): void {
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const userId = user?.id;
  const companyId = user?.companyId;

  useEffect(() => {
    if (userId === undefined || companyId === undefined) return;
    const key = chatKeys.list(userId);
    const change = (apply: (list: ChatList | undefined) => ChatList | undefined) => queryClient.setQueryData<ChatList>(key, apply);
    const offUser = realtime.on(chatUserChannel(companyId, userId), (data) => {
      const frame = data as ChatUserEvent;
      change((list) => putChat(list, frame.chat));
      queryClient.setQueryData(chatKeys.chat(frame.chat.uuid), frame.chat);
    });
    const offList = realtime.on(chatListChannel(companyId), (data) => {
      const frame = data as ChatListEvent;
      if (frame.action === 'new-message') {
        change((list) => putChat(list, frame.chat));
        return;
      }
      change((list) => dropChat(list, frame.chatId));
      queryClient.removeQueries({ queryKey: chatKeys.messages(frame.chatId) });
      queryClient.removeQueries({ queryKey: chatKeys.chat(frame.uuid) });
      onDelete?.(frame);
    });
    return () => {
      offUser();
      offList();
    };
  }, [userId, companyId, realtime, queryClient, onDelete]);
}
