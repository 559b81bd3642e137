import { Suspense, lazy, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Empty, Flex, Spin, Tabs, theme } from 'antd';
import { MessageOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { registerTranslations } from '../../i18n';
import { NARROW_WIDTH, useViewportWidth } from '../../layout/use-viewport';
import { ticketsTranslations } from './tickets.i18n';
import { TicketsManager } from './tickets-manager';

registerTranslations('tickets', ticketsTranslations);

const Conversation = lazy(() => import('./conversation/conversation'));

/** The top bar (64 px) and the content's padding: the page takes the rest of the window. */
const PAGE_HEIGHT = { wide: 'calc(100dvh - 64px - 32px)', narrow: 'calc(100dvh - 64px - 16px)' };
const LIST_WIDTH = 'clamp(300px, 38%, 420px)';

function Centered({ children }: { children: ReactNode }) {
  return (
    <Flex flex={1} align="center" justify="center" style={{ minHeight: 0, height: '100%' }}>
      {children}
    </Flex>
  );
}

/**
 * The open ticket, or a hint to pick one. The conversation loads the ticket itself: one the user
 * may not open (403) says 'Acesso não permitido' and calls onLeave, which goes back to /tickets.
 */
function ConversationPane({ uuid, onLeave }: { uuid: string | undefined; onLeave(): void }) {
  const { t } = useTranslation('tickets');
  if (!uuid) {
    return (
      <Centered>
        <Empty image={<MessageOutlined style={{ fontSize: 56, opacity: 0.35 }} />} description={t('layout.noTicket')} data-testid="no-ticket" />
      </Centered>
    );
  }
  return (
    <Suspense
      fallback={
        <Centered>
          <Spin />
        </Centered>
      }
    >
      <Flex vertical style={{ height: '100%', minHeight: 0 }} data-testid="conversation-pane">
        <Conversation key={uuid} ticketUuid={uuid} onLeave={onLeave} />
      </Flex>
    </Suspense>
  );
}

/**
 * /tickets/:ticketId? — the agents' inbox. Wide screens show the list (left) and the open
 * conversation (right); under 600 px the 'Ticket' and 'Atendimentos' tabs show one at a time.
 */
export default function TicketsPage() {
  const { t } = useTranslation('tickets');
  const { token } = theme.useToken();
  const params = useParams<{ ticketId?: string }>();
  const uuid = params.ticketId || undefined;
  const [, navigate] = useLocation();
  const narrow = useViewportWidth() < NARROW_WIDTH;
  const [pane, setPane] = useState<'ticket' | 'list'>(uuid ? 'ticket' : 'list');

  // A ticket chosen (or left) decides the phone's tab.
  useEffect(() => setPane(uuid ? 'ticket' : 'list'), [uuid]);

  const leave = useCallback(() => navigate('/tickets'), [navigate]);
  const openTicket = useCallback((next: string) => navigate(`/tickets/${next}`), [navigate]);

  const frame = {
    height: narrow ? PAGE_HEIGHT.narrow : PAGE_HEIGHT.wide,
    minHeight: 360,
    background: token.colorBgContainer,
    border: `1px solid ${token.colorBorderSecondary}`,
    borderRadius: token.borderRadiusLG,
    overflow: 'hidden',
  } as const;
  const manager = <TicketsManager selectedUuid={uuid} narrow={narrow} onOpen={openTicket} />;
  const conversation = <ConversationPane uuid={uuid} onLeave={leave} />;

  if (narrow) {
    return (
      <Flex vertical style={frame} data-testid="tickets-page" data-layout="tabs">
        <Tabs
          activeKey={pane}
          onChange={(key) => setPane(key as 'ticket' | 'list')}
          centered
          tabBarStyle={{ margin: 0 }}
          items={[
            { key: 'ticket', label: t('layout.ticketTab') },
            { key: 'list', label: t('layout.listTab') },
          ]}
        />
        <Flex vertical flex={1} style={{ minHeight: 0, display: pane === 'list' ? 'flex' : 'none' }}>
          {manager}
        </Flex>
        <Flex vertical flex={1} style={{ minHeight: 0, display: pane === 'ticket' ? 'flex' : 'none' }}>
          {conversation}
        </Flex>
      </Flex>
    );
  }

  return (
    <Flex style={frame} data-testid="tickets-page" data-layout="panes">
      <Flex vertical style={{ width: LIST_WIDTH, flex: 'none', minHeight: 0, borderInlineEnd: `1px solid ${token.colorBorderSecondary}` }}>
        {manager}
      </Flex>
      <Flex vertical flex={1} style={{ minWidth: 0, minHeight: 0 }}>
        {conversation}
      </Flex>
    </Flex>
  );
}
