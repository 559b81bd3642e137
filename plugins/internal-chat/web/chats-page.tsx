import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Empty, Flex, Spin, Tabs, Tooltip, Typography, theme } from 'antd';
import { CommentOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'wouter';
import { api, errorText, ListHeader, useAuth, useConfirmDelete, useQuery, useQueryClient } from 'atende/web';
import { ChatConversation } from './chat-conversation';
import { ChatList } from './chat-list';
import { ChatModal } from './chat-modal';
import { chatKeys, dropChat, useChats, useLiveChats, usePutChat, type ChatList as ChatListData, type ChatView } from './chat-cache';

/** antd's md breakpoint: below it the list and the conversation are two tabs. */
const MD = 768;
/** The top bar (64 px) and the content's padding: the page takes the rest of the window. */
const PAGE_HEIGHT = { wide: 'calc(100dvh - 64px - 32px)', narrow: 'calc(100dvh - 64px - 16px)' };
const LIST_WIDTH = 'clamp(260px, 34%, 380px)';

function useWide(): boolean {
  const [wide, setWide] = useState(() => window.innerWidth >= MD);
  useEffect(() => {
    const onResize = () => setWide(window.innerWidth >= MD);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return wide;
}

function Centered({ children }: { children: ReactNode }) {
  return (
    <Flex flex={1} align="center" justify="center" style={{ padding: 16, minHeight: 0 }}>
      {children}
    </Flex>
  );
}

/** The chat on the address: from the list, or on its own (a chat further down, or just opened by link). */
function useOpenChat(uuid: string | undefined) {
  const chats = useChats();
  const listed = chats.data?.pages.flatMap((p) => p.records).find((c) => c.uuid === uuid);
  const single = useQuery({
    queryKey: chatKeys.chat(uuid ?? ''),
    queryFn: ({ signal }) => api.get<ChatView>(`/chats/${uuid}`, undefined, { signal }),
    enabled: uuid !== undefined && !chats.isLoading && listed === undefined,
    retry: false,
  });
  return { chat: listed ?? (uuid ? single.data : undefined), loading: chats.isLoading || single.isLoading, error: listed ? null : single.error };
}

/**
 * /chats/:id? (plan flag useInternalChat): the user's conversations with colleagues and the open
 * one's messages, side by side; below the md breakpoint the 'Chats' and 'Mensagens' tabs. The
 * address names the open chat by its uuid.
 */
export default function ChatsPage() {
  const { t } = useTranslation('internal-chat');
  const { token } = theme.useToken();
  const { user } = useAuth();
  const params = useParams<{ id?: string }>();
  const uuid = params.id ? params.id.toLowerCase() : undefined;
  const [, navigate] = useLocation();
  const wide = useWide();
  const [tab, setTab] = useState<'chats' | 'messages'>(uuid ? 'messages' : 'chats');
  const [editing, setEditing] = useState<{ open: boolean; chat: ChatView | null }>({ open: false, chat: null });
  const confirmDelete = useConfirmDelete();
  const queryClient = useQueryClient();
  const putChat = usePutChat();
  const { chat, loading, error } = useOpenChat(uuid);
  const here = useRef(uuid);
  here.current = uuid;

  // A chat chosen (or left) decides the phone's tab.
  useEffect(() => setTab(uuid ? 'messages' : 'chats'), [uuid]);

  // The open chat deleted (or the user taken out of it): no selection, back to /chats.
  const onGone = useCallback(
    (gone: { uuid: string }) => {
      if (gone.uuid === here.current) navigate('/chats', { replace: true });
    },
    [navigate],
  );
  useLiveChats(onGone);

  const edit = (target: ChatView) => setEditing({ open: true, chat: target });
  const remove = (target: ChatView) =>
    confirmDelete({
      name: target.title,
      content: t('deleteMessage'),
      remove: async () => {
        await api.delete(`/chats/${target.id}`);
        queryClient.setQueryData<ChatListData>(chatKeys.list(user?.id ?? 0), (list) => dropChat(list, target.id));
        onGone(target);
      },
      errorText: (err) => errorText(err, t),
    });
  const closeModal = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);
  const saved = (next: ChatView, created: boolean) => {
    putChat(next);
    if (created) navigate(`/chats/${next.uuid}`);
  };

  const list = <ChatList selectedUuid={uuid} onEdit={edit} onDelete={remove} />;

  let pane: ReactNode;
  if (!uuid) {
    pane = (
      <Centered>
        <Empty image={<CommentOutlined style={{ fontSize: 56, opacity: 0.35 }} />} description={t('pick')} data-testid="chat-pick" />
      </Centered>
    );
  } else if (chat) {
    const owner = chat.ownerId === user?.id;
    pane = (
      <Flex vertical style={{ flex: 1, minHeight: 0 }} data-testid="chat-pane">
        <Flex align="center" gap={8} style={{ padding: '8px 12px', borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
          <Flex vertical style={{ flex: 1, minWidth: 0 }}>
            <Typography.Text strong ellipsis data-testid="chat-title">
              {chat.title}
            </Typography.Text>
            <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
              {chat.users.map((m) => (m.userId === user?.id ? t('you') : m.user.name)).join(', ')}
            </Typography.Text>
          </Flex>
          {owner ? (
            <>
              <Tooltip title={t('common:actions.edit')}>
                <Button type="text" icon={<EditOutlined />} aria-label={t('edit', { title: chat.title })} onClick={() => edit(chat)} />
              </Tooltip>
              <Tooltip title={t('common:actions.delete')}>
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('delete', { title: chat.title })} onClick={() => remove(chat)} />
              </Tooltip>
            </>
          ) : null}
        </Flex>
        <ChatConversation key={chat.id} chat={chat} />
      </Flex>
    );
  } else if (loading) {
    pane = (
      <Centered>
        <Spin />
      </Centered>
    );
  } else {
    pane = (
      <Centered>
        <Flex vertical align="center" gap={8}>
          <Empty description={error ? errorText(error, t) : t('notFound')} />
          <Link href="/chats">{t('backToChats')}</Link>
        </Flex>
      </Centered>
    );
  }

  const frame = {
    flex: 1,
    minHeight: 0,
    display: 'flex',
    background: token.colorBgContainer,
    border: `1px solid ${token.colorBorderSecondary}`,
    borderRadius: token.borderRadiusLG,
    overflow: 'hidden',
  } as const;

  return (
    <Flex vertical gap={8} style={{ height: wide ? PAGE_HEIGHT.wide : PAGE_HEIGHT.narrow, minHeight: 360 }}>
      <ListHeader title={t('title')} add={{ label: t('addLabel'), shortLabel: t('add'), onClick: () => setEditing({ open: true, chat: null }) }} />
      {wide ? (
        <div style={frame}>
          <Flex vertical style={{ width: LIST_WIDTH, flex: 'none', borderInlineEnd: `1px solid ${token.colorBorderSecondary}` }}>{list}</Flex>
          <Flex vertical style={{ flex: 1, minWidth: 0 }}>
            {pane}
          </Flex>
        </div>
      ) : (
        <div style={{ ...frame, flexDirection: 'column' }}>
          <Tabs
            activeKey={tab}
            onChange={(key) => setTab(key as 'chats' | 'messages')}
            centered
            tabBarStyle={{ marginBottom: 0 }}
            items={[
              { key: 'chats', label: t('tabs.chats') },
              { key: 'messages', label: t('tabs.messages') },
            ]}
          />
          <Flex vertical style={{ flex: 1, minHeight: 0 }}>
            {tab === 'chats' ? list : pane}
          </Flex>
        </div>
      )}
      <ChatModal open={editing.open} chat={editing.chat} onClose={closeModal} onSaved={saved} />
    </Flex>
  );
}
