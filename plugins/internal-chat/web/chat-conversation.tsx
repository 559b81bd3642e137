import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { App, Button, Empty, Flex, Input, Spin, Typography, theme, type GetRef } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  api,
  companyTimezone,
  errorText,
  useAuth,
  useInfiniteQuery,
  useQueryClient,
  zonedDay,
  zonedText,
  type InfiniteData,
} from 'atende/web';
import { chatRoomChannel, type ChatMessageView, type ChatRoomEvent } from '../chat.contract';
import { chatKeys, unreadsOf, usePutChat, type ChatMessagesPage, type ChatView } from './chat-cache';

type Pages = InfiniteData<ChatMessagesPage, unknown>;

/** The spec's rule: older messages load while the scroll position is under 600 px from the top. */
const LOAD_OLDER_PX = 600;
/** From antd's md breakpoint up, an opened chat's composer takes the focus. */
const FOCUS_MIN_WIDTH = 768;
/** Within this distance of the bottom, a new message keeps the pane at the bottom. */
const STICK_PX = 80;

/** The messages on screen, oldest first, each once (pages overlap once new messages shift them). */
function ordered(pages: Pages | undefined): ChatMessageView[] {
  const byId = new Map<number, ChatMessageView>();
  for (const page of pages?.pages ?? []) for (const m of page.records) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Adds a message to the newest page, once. */
function withMessage(pages: Pages | undefined, message: ChatMessageView): Pages | undefined {
  if (!pages || pages.pages.length === 0) return pages;
  if (pages.pages.some((p) => p.records.some((m) => m.id === message.id))) return pages;
  const [first, ...rest] = pages.pages;
  return { ...pages, pages: [{ ...first!, records: [...first!.records, message], count: first!.count + 1 }, ...rest] };
}

function useChatMessages(chat: ChatView) {
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: chatKeys.messages(chat.id),
    queryFn: ({ pageParam, signal }) => api.get<ChatMessagesPage>(`/chats/${chat.id}/messages`, { pageNumber: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last: ChatMessagesPage, pages: ChatMessagesPage[]) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const companyId = user?.companyId;

  useEffect(() => {
    if (companyId === undefined) return;
    return realtime.on(chatRoomChannel(companyId, chat.id), (data) => {
      const frame = data as ChatRoomEvent;
      queryClient.setQueryData<Pages>(chatKeys.messages(chat.id), (pages) => withMessage(pages, frame.message));
    });
  }, [companyId, chat.id, realtime, queryClient]);

  const add = (message: ChatMessageView) => queryClient.setQueryData<Pages>(chatKeys.messages(chat.id), (pages) => withMessage(pages, message));
  return { query, messages: useMemo(() => ordered(query.data), [query.data]), add };
}

/** Marks the chat read whenever the user has unread messages in it while it is on screen. */
function useReadMark(chat: ChatView): void {
  const { user } = useAuth();
  const putChat = usePutChat();
  const unread = unreadsOf(chat, user?.id);
  const reading = useRef(false);

  useEffect(() => {
    if (unread === 0 || user === null) return;
    const read = () => {
      if (document.visibilityState !== 'visible' || reading.current) return;
      reading.current = true;
      api
        .post<ChatView>(`/chats/${chat.id}/read`, { userId: user.id })
        .then(putChat)
        // A failed mark leaves the count; the next message or visit tries again.
        .catch(() => undefined)
        .finally(() => (reading.current = false));
    };
    read();
    document.addEventListener('visibilitychange', read);
    return () => document.removeEventListener('visibilitychange', read);
  }, [chat.id, unread, user, putChat]);
}

/** A bubble names its sender when the one above it is someone else's (or of another day). */
function Bubble({ message, mine, named, zone }: { message: ChatMessageView; mine: boolean; named: boolean; zone: string }) {
  const { t } = useTranslation('internal-chat');
  const { token } = theme.useToken();
  return (
    <Flex justify={mine ? 'flex-end' : 'flex-start'} data-testid="chat-message">
      <div
        style={{
          maxWidth: 'min(75%, 560px)',
          padding: '6px 10px',
          borderRadius: token.borderRadiusLG,
          background: mine ? token.colorPrimaryBg : token.colorFillQuaternary,
          border: `1px solid ${mine ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
        }}
      >
        {mine || !named ? null : (
          <Typography.Text strong style={{ display: 'block', fontSize: token.fontSizeSM, color: token.colorPrimaryText }}>
            {message.sender?.name ?? t('removedUser')}
          </Typography.Text>
        )}
        <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message.message}</Typography.Paragraph>
        <Typography.Text type="secondary" style={{ display: 'block', textAlign: 'end', fontSize: token.fontSizeSM }}>
          {zonedText(message.createdAt, zone, 'HH:mm')}
        </Typography.Text>
      </div>
    </Flex>
  );
}

function DayDivider({ day }: { day: string }) {
  const { token } = theme.useToken();
  return (
    <Flex justify="center" style={{ margin: '8px 0' }}>
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, padding: '0 8px', borderRadius: token.borderRadiusSM, background: token.colorFillTertiary }}>
        {day}
      </Typography.Text>
    </Flex>
  );
}

function Composer({ chat, onSent }: { chat: ChatView; onSent(message: ChatMessageView): void }) {
  const { t } = useTranslation('internal-chat');
  const { message: toast } = App.useApp();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const input = useRef<GetRef<typeof Input.TextArea>>(null);

  // A chat opened on a wide screen is ready to write in (on a phone the keyboard would cover it).
  useEffect(() => {
    if (window.innerWidth >= FOCUS_MIN_WIDTH) input.current?.focus();
  }, []);

  const send = async () => {
    const body = text.trim();
    if (!body || sending) return;
    setSending(true);
    try {
      onSent(await api.post<ChatMessageView>(`/chats/${chat.id}/messages`, { message: body }));
      setText('');
    } catch (err) {
      void toast.error(errorText(err, t) || t('sendFailed'));
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter breaks the line (and Enter while composing an accent is the IME's).
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <Flex gap={8} align="flex-end" style={{ padding: 8 }}>
      <Input.TextArea
        ref={input}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        autoSize={{ minRows: 1, maxRows: 6 }}
        maxLength={4000}
        placeholder={t('placeholder')}
        aria-label={t('placeholder')}
        title={t('composerHint')}
        data-testid="chat-composer"
      />
      <Button type="primary" icon={<SendOutlined />} onClick={() => void send()} loading={sending} aria-label={t('send')} data-testid="chat-send" />
    </Flex>
  );
}

/** A chat's messages (older pages load near the top) and the composer. */
export function ChatConversation({ chat }: { chat: ChatView }) {
  const { t } = useTranslation('internal-chat');
  const { user } = useAuth();
  const zone = companyTimezone(user);
  const { query, messages, add } = useChatMessages(chat);
  useReadMark(chat);
  const scroller = useRef<HTMLDivElement>(null);
  // What the list looked like at the last layout: to keep the view still when older messages come
  // in above it, and to follow new ones at the bottom.
  const shape = useRef({ firstId: 0, lastId: 0, height: 0, atBottom: true });

  const loadOlder = () => {
    const el = scroller.current;
    if (!el || !query.hasNextPage || query.isFetchingNextPage) return;
    if (el.scrollTop < LOAD_OLDER_PX) void query.fetchNextPage();
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const first = messages[0]?.id ?? 0;
    const last = messages[messages.length - 1]?.id ?? 0;
    const before = shape.current;
    const newest = messages[messages.length - 1];
    if (before.lastId === 0 || (last !== before.lastId && (before.atBottom || newest?.senderId === user?.id))) {
      el.scrollTop = el.scrollHeight;
    } else if (first !== before.firstId && before.firstId !== 0) {
      el.scrollTop += el.scrollHeight - before.height;
    }
    shape.current = { firstId: first, lastId: last, height: el.scrollHeight, atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX };
    loadOlder();
  }, [messages]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    shape.current.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    loadOlder();
  };

  let lastDay = '';
  let lastSender: number | null | undefined;
  return (
    <Flex vertical style={{ flex: 1, minHeight: 0 }}>
      <div
        ref={scroller}
        onScroll={onScroll}
        style={{ flex: 1, minHeight: 0, overflowY: 'auto', padding: '8px 12px', display: 'flex', flexDirection: 'column', gap: 6 }}
        data-testid="chat-messages"
        role="log"
        aria-label={chat.title}
      >
        {query.isFetchingNextPage ? (
          <Flex justify="center" gap={8}>
            <Spin size="small" />
            <Typography.Text type="secondary">{t('loadingOlder')}</Typography.Text>
          </Flex>
        ) : null}
        {query.isLoading ? (
          <Flex flex={1} align="center" justify="center">
            <Spin />
          </Flex>
        ) : query.isError ? (
          <Flex flex={1} align="center" justify="center">
            <Empty description={errorText(query.error, t) || t('messagesFailed')} />
          </Flex>
        ) : messages.length === 0 ? (
          <Flex flex={1} align="center" justify="center">
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noMessages')} />
          </Flex>
        ) : (
          messages.map((m) => {
            const day = zonedDay(m.createdAt, zone);
            const divider = day !== lastDay ? <DayDivider day={zonedText(m.createdAt, zone, 'DD/MM/YYYY')} /> : null;
            const named = divider !== null || m.senderId !== lastSender;
            lastDay = day;
            lastSender = m.senderId;
            return (
              <div key={m.id}>
                {divider}
                <Bubble message={m} mine={m.senderId === user?.id} named={named} zone={zone} />
              </div>
            );
          })
        )}
      </div>
      <Composer chat={chat} onSent={add} />
    </Flex>
  );
}
