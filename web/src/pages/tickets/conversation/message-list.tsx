import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Empty, Flex, Spin, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../../../api/types';
import { useAuth } from '../../../auth/auth-provider';
import { ZonedTime } from '../../../components/zoned-time';
import { useCompanyClock, type CompanyClock } from '../../../layout/use-company-clock';
import { MessageBubble, type MessageActions } from './message-bubble';
import type { ConversationMessages } from './use-messages';

/** Older messages load when the reader scrolls this close to the top (spec §9). */
const LOAD_OLDER_PX = 50;
/** Within this distance of the bottom the list follows new messages and media that grow. */
const STICK_PX = 80;

interface MessageListProps extends MessageActions {
  list: ConversationMessages;
  contactName: string;
}

function Separator({ children, testId, strong }: { children: ReactNode; testId: string; strong?: boolean }) {
  const { token } = theme.useToken();
  return (
    <Flex justify="center" data-testid={testId} style={{ margin: '8px 0' }}>
      <Typography.Text
        style={{
          fontSize: 12,
          padding: '2px 10px',
          borderRadius: token.borderRadiusLG,
          background: strong ? token.colorWarningBg : token.colorBgContainer,
          border: `1px solid ${strong ? token.colorWarningBorder : token.colorBorderSecondary}`,
          color: token.colorTextSecondary,
        }}
      >
        {children}
      </Typography.Text>
    </Flex>
  );
}

/** The separators before a message: a new day (the company's), and the end of one ticket and start of the next. */
function separatorsBefore(message: ChatMessage, previous: ChatMessage | undefined, t: (key: string) => string, clock: CompanyClock): ReactNode {
  const day = clock.format(message.createdAt, 'DD/MM/YYYY');
  const newTicket = previous !== undefined && previous.ticketId !== message.ticketId;
  return (
    <>
      {newTicket ? (
        <Separator testId="ticket-ended" strong>
          {t('messages.ticketEnded')} · #{previous.ticketId}
        </Separator>
      ) : null}
      {!previous || clock.format(previous.createdAt, 'DD/MM/YYYY') !== day ? <Separator testId="date-separator">{day}</Separator> : null}
      {newTicket ? (
        <Separator testId="ticket-started" strong>
          {t('messages.ticketStarted')} · #{message.ticketId} · <ZonedTime value={message.createdAt} />
        </Separator>
      ) : null}
    </>
  );
}

/**
 * The scrolling list: opens at the bottom, follows new messages while the reader is near the
 * bottom, and loads older pages near the top without moving what the reader sees.
 */
export function MessageList({ list, contactName, ...actions }: MessageListProps) {
  const { t } = useTranslation('conversation');
  const { token } = theme.useToken();
  const { user } = useAuth();
  const clock = useCompanyClock();
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  /** The scroll height and position before older messages came in, to restore the view after. */
  const anchor = useRef<{ height: number; top: number; first: number | undefined } | null>(null);
  const { messages, loaded, loadingOlder, hasMore, loadOlder } = list;
  const firstId = messages[0]?.id;

  const toBottom = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // Older messages were prepended: keep the same messages under the reader's eyes.
  useLayoutEffect(() => {
    const el = scroller.current;
    const saved = anchor.current;
    if (!el || !saved || saved.first === firstId) return;
    el.scrollTop = el.scrollHeight - saved.height + saved.top;
    anchor.current = null;
  }, [firstId]);

  // New messages, and media that finish loading, grow the content: stay at the bottom if there.
  // What the user just sent always brings the list down to it.
  const lastSeen = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const last = messages[messages.length - 1];
    if (last && last.id !== lastSeen.current && last.fromMe && last.userId === user?.id) stick.current = true;
    lastSeen.current = last?.id;
    if (stick.current) toBottom();
  }, [messages, loaded, toBottom, user?.id]);

  useEffect(() => {
    const inner = content.current;
    if (!inner) return;
    const observer = new ResizeObserver(() => {
      if (stick.current) toBottom();
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, [toBottom]);

  const maybeLoadOlder = useCallback(() => {
    const el = scroller.current;
    if (!el || el.scrollTop >= LOAD_OLDER_PX || !hasMore || loadingOlder || !loaded) return;
    anchor.current = { height: el.scrollHeight, top: el.scrollTop, first: firstId };
    loadOlder();
  }, [hasMore, loadingOlder, loaded, firstId, loadOlder]);

  // A first page too short to scroll could never be scrolled up: fetch more until it can.
  useEffect(() => {
    const el = scroller.current;
    // A hidden list (a tab not shown) measures 0 and must not fetch everything.
    if (el && el.clientHeight > 0 && el.scrollHeight <= el.clientHeight) maybeLoadOlder();
  }, [maybeLoadOlder]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    maybeLoadOlder();
  };

  const showQuoted = useCallback((id: number) => {
    const target = document.getElementById(`message-${id}`);
    if (!target) return;
    target.scrollIntoView({ block: 'center', behavior: 'smooth' });
    target.animate([{ opacity: 0.4 }, { opacity: 1 }], { duration: 800 });
  }, []);

  return (
    <div
      ref={scroller}
      onScroll={onScroll}
      data-testid="message-list"
      role="log"
      aria-busy={!loaded || loadingOlder}
      // The list keeps the reader's place itself (older pages, stick to bottom); the browser's own anchoring would fight it.
      style={{ flex: 1, minHeight: 0, overflowY: 'auto', overflowAnchor: 'none', background: token.colorBgLayout, padding: '8px 12px' }}
    >
      {loadingOlder ? (
        // Takes no room: the content must not move while older messages are on their way.
        <div style={{ position: 'sticky', top: 0, height: 0, zIndex: 1, display: 'flex', justifyContent: 'center' }}>
          <Spin size="small" aria-label={t('messages.loadingOlder')} style={{ marginTop: 4 }} />
        </div>
      ) : null}
      <Flex vertical gap={6} ref={content}>
        {!loaded ? (
          <Flex justify="center" style={{ padding: 32 }}>
            <Spin />
          </Flex>
        ) : messages.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('messages.empty')} />
        ) : (
          messages.map((message, i) => (
            <Fragment key={message.id}>
              {separatorsBefore(message, messages[i - 1], t, clock)}
              <MessageBubble message={message} contactName={contactName} onShowQuoted={showQuoted} {...actions} />
            </Fragment>
          ))
        )}
      </Flex>
    </div>
  );
}
