import { useEffect, useRef } from 'react';
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { playChime, useAuth } from 'atende/web';
import { chatListChannel, type ChatListEvent } from '../chat.contract';
import { unreadsOf, useChats, useLiveChats } from './chat-cache';

const OPEN_CHAT = /^\/chats\/([^/?#]+)/;
/** A burst of messages chimes once. */
const CHIME_GAP_MS = 1000;

/**
 * The dot on the menu's Chat Interno entry while one of the user's chats has unread messages, and
 * the chime (at the top bar's volume) for a colleague's message in a chat that is not open on screen.
 * It is mounted whenever the menu is, so it keeps the chat list live for the whole app.
 */
export function ChatsBadge() {
  const { t } = useTranslation('internal-chat');
  const { user, realtime } = useAuth();
  const chats = useChats();
  useLiveChats();
  const [location] = useLocation();
  const here = useRef(location);
  here.current = location;
  const chimedAt = useRef(0);
  const userId = user?.id;
  const companyId = user?.companyId;

  useEffect(() => {
    if (userId === undefined || companyId === undefined) return;
    return realtime.on(chatListChannel(companyId), (data) => {
      const frame = data as ChatListEvent;
      if (frame.action !== 'new-message' || frame.message.senderId === userId) return;
      const open = OPEN_CHAT.exec(here.current)?.[1]?.toLowerCase() === frame.chat.uuid && document.visibilityState === 'visible';
      if (open || Date.now() - chimedAt.current < CHIME_GAP_MS) return;
      chimedAt.current = Date.now();
      playChime();
    });
  }, [userId, companyId, realtime]);

  const unread = chats.data?.pages.some((page) => page.records.some((chat) => unreadsOf(chat, userId) > 0)) ?? false;
  if (!unread) return null;
  return (
    <span role="img" aria-label={t('unreadDot')} title={t('unreadDot')} data-testid="chats-unread-dot" style={{ display: 'inline-flex' }}>
      <Badge status="error" />
    </span>
  );
}
