import type { UIEvent } from 'react';
import { Badge, Button, Empty, Flex, Spin, Tooltip, Typography, theme } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { companyTimezone, errorText, useAuth, zonedDay, zonedText } from 'atende/web';
import { unreadsOf, useChats, type ChatView } from './chat-cache';

export interface ChatListProps {
  selectedUuid: string | undefined;
  onEdit(chat: ChatView): void;
  onDelete(chat: ChatView): void;
}

/** Today's time, or the day of an older activity. */
function when(instant: string, zone: string): string {
  return zonedDay(instant, zone) === zonedDay(new Date(), zone) ? zonedText(instant, zone, 'HH:mm') : zonedText(instant, zone, 'DD/MM/YY');
}

/** The user's chats, latest activity first, each a link to /chats/{uuid}; the owner's own have edit and delete. */
export function ChatList({ selectedUuid, onEdit, onDelete }: ChatListProps) {
  const { t } = useTranslation('internal-chat');
  const { token } = theme.useToken();
  const { user } = useAuth();
  const zone = companyTimezone(user);
  const chats = useChats();
  const records = chats.data?.pages.flatMap((p) => p.records) ?? [];

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < 100 && chats.hasNextPage && !chats.isFetchingNextPage) void chats.fetchNextPage();
  };

  if (chats.isLoading) {
    return (
      <Flex flex={1} align="center" justify="center">
        <Spin />
      </Flex>
    );
  }
  if (chats.isError) {
    return (
      <Flex flex={1} align="center" justify="center" vertical gap={8}>
        <Empty description={errorText(chats.error, t) || t('loadFailed')} />
        <Button onClick={() => void chats.refetch()}>{t('common:actions.reload')}</Button>
      </Flex>
    );
  }
  if (records.length === 0) {
    return (
      <Flex flex={1} align="center" justify="center" style={{ padding: 16 }}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} />
      </Flex>
    );
  }

  return (
    <div style={{ flex: 1, minHeight: 0, overflowY: 'auto' }} onScroll={onScroll} data-testid="chat-list">
      {records.map((chat) => {
        const selected = chat.uuid === selectedUuid;
        const unread = unreadsOf(chat, user?.id);
        const owner = chat.ownerId === user?.id;
        return (
          <Flex
            key={chat.id}
            align="center"
            style={{
              borderBottom: `1px solid ${token.colorBorderSecondary}`,
              background: selected ? token.controlItemBgActive : undefined,
              paddingInlineEnd: 4,
            }}
            data-testid="chat-item"
          >
            <Link
              href={`/chats/${chat.uuid}`}
              aria-current={selected ? 'page' : undefined}
              style={{ flex: 1, minWidth: 0, padding: '10px 12px', color: 'inherit', display: 'block' }}
            >
              <Flex gap={8} align="center">
                <Typography.Text strong={unread > 0} ellipsis style={{ flex: 1, minWidth: 0 }}>
                  {chat.title}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, flex: 'none' }}>
                  {when(chat.updatedAt, zone)}
                </Typography.Text>
              </Flex>
              <Flex gap={8} align="center">
                <Typography.Text type="secondary" ellipsis style={{ flex: 1, minWidth: 0 }}>
                  {chat.lastMessage || t('members', { count: chat.users.length })}
                </Typography.Text>
                {unread > 0 ? <Badge count={unread} color={token.colorSuccess} title={t('unread', { count: unread })} data-testid="chat-unread" /> : null}
              </Flex>
            </Link>
            {owner ? (
              <Flex gap={0} style={{ flex: 'none' }}>
                <Tooltip title={t('common:actions.edit')}>
                  <Button type="text" size="small" icon={<EditOutlined />} aria-label={t('edit', { title: chat.title })} onClick={() => onEdit(chat)} />
                </Tooltip>
                <Tooltip title={t('common:actions.delete')}>
                  <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('delete', { title: chat.title })} onClick={() => onDelete(chat)} />
                </Tooltip>
              </Flex>
            ) : null}
          </Flex>
        );
      })}
      {chats.isFetchingNextPage ? (
        <Flex justify="center" style={{ padding: 8 }}>
          <Spin size="small" />
        </Flex>
      ) : null}
    </div>
  );
}
