import { useCallback, useRef, useState } from 'react';
import { App, Flex, Spin, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { errorText } from '../../../api/errors';
import type { ChatMessage, Ticket } from '../../../api/types';
import { useAuth } from '../../../auth/auth-provider';
import { registerTranslations } from '../../../i18n';
import MessageComposer from '../composer/message-composer';
import { ContactDrawer } from './contact-drawer';
import { conversationTranslations } from './conversation.i18n';
import { EditMessageModal } from './edit-message-modal';
import { MessageList } from './message-list';
import { TagEditor } from './tag-editor';
import { TicketHeader, type HeaderDensity } from './ticket-header';
import { TransferModal } from './transfer-modal';
import { useElementWidth } from './use-element-width';
import { useMessages } from './use-messages';
import { useTicket } from './use-ticket';
import { useTicketActions } from './use-ticket-actions';

registerTranslations('conversation', conversationTranslations);

/** Below these pane widths the header's secondary actions become icons, then a menu. */
const ICONS_WIDTH = 760;
const MENU_WIDTH = 520;

function densityFor(width: number): HeaderDensity {
  // Not measured yet (0): the full header, as on a desktop.
  if (width === 0 || width >= ICONS_WIDTH) return 'full';
  return width >= MENU_WIDTH ? 'icons' : 'menu';
}

export interface ConversationProps {
  /** The ticket to show (from the route /tickets/:uuid). */
  ticketUuid: string;
  /** An admin's peek from the list: messages only, no actions and no composer. */
  readOnly?: boolean;
  /** Called after an action that leaves the ticket (return, resolve, transfer away, delete). */
  onLeave?: () => void;
}

export type { ChatMessage, Ticket };

/** The conversation of one ticket: header with actions, message list, contact drawer and composer. */
export default function Conversation(props: ConversationProps) {
  // Another ticket is another conversation: nothing of the previous one is kept.
  return <ConversationView key={props.ticketUuid} {...props} />;
}

function ConversationView({ ticketUuid, readOnly = false, onLeave }: ConversationProps) {
  const { t } = useTranslation('conversation');
  const { message, modal } = App.useApp();
  const { token } = theme.useToken();
  const { user } = useAuth();
  const leaveRef = useRef(onLeave);
  leaveRef.current = onLeave;
  const leave = useCallback(() => leaveRef.current?.(), []);

  const { ticket, setTicket } = useTicket(ticketUuid, leave);
  const list = useMessages(ticket);
  const actions = useTicketActions(ticket, setTicket, leave);
  const [replyingTo, setReplyingTo] = useState<ChatMessage | null>(null);
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  const [transferring, setTransferring] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [rootRef, width] = useElementWidth<HTMLDivElement>();
  const admin = user?.profile === 'admin' || user?.super === true;
  const { replace } = list;

  const clearReply = useCallback(() => setReplyingTo(null), []);
  const closeEdit = useCallback(() => setEditing(null), []);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  const deleteMessage = useCallback(
    (target: ChatMessage) =>
      modal.confirm({
        title: t('messages.deleteTitle'),
        content: t('messages.deleteContent'),
        okText: t('messages.deleteOk'),
        cancelText: t('common:actions.cancel'),
        okButtonProps: { danger: true },
        onOk: async () => {
          try {
            replace(await api.delete<ChatMessage>(`/messages/${target.id}`));
          } catch (err) {
            void message.error(errorText(err, t));
          }
        },
      }),
    [modal, message, t, replace],
  );

  // Replies go through the composer, which only sends on an open ticket.
  const mayReply = !readOnly && ticket?.status === 'open';

  return (
    <div
      ref={rootRef}
      data-testid="conversation"
      data-ticket-id={ticket?.id}
      style={{
        position: 'relative',
        display: 'flex',
        flexDirection: 'column',
        height: '100%',
        minHeight: 0,
        overflow: 'hidden',
        background: token.colorBgContainer,
      }}
    >
      {!ticket ? (
        <Flex flex={1} align="center" justify="center">
          <Spin size="large" />
        </Flex>
      ) : (
        <>
          <TicketHeader
            ticket={ticket}
            readOnly={readOnly}
            admin={admin}
            density={densityFor(width)}
            actions={actions}
            onTransfer={() => setTransferring(true)}
            onOpenContact={() => setDrawerOpen(true)}
          />
          {readOnly && ticket.tags.length === 0 ? null : <TagEditor ticket={ticket} disabled={readOnly} />}
          <MessageList
            list={list}
            contactName={ticket.contact.name}
            onReply={mayReply ? setReplyingTo : undefined}
            onEdit={readOnly ? undefined : setEditing}
            onDelete={readOnly ? undefined : deleteMessage}
          />
          {readOnly ? null : <MessageComposer ticket={ticket} replyingTo={replyingTo} onClearReply={clearReply} />}
          <ContactDrawer open={drawerOpen} ticket={ticket} readOnly={readOnly} onClose={closeDrawer} />
          {readOnly ? null : (
            <>
              <TransferModal open={transferring} ticket={ticket} onClose={() => setTransferring(false)} onTransferred={actions.transferred} />
              <EditMessageModal message={editing} onClose={closeEdit} onSaved={replace} />
            </>
          )}
        </>
      )}
    </div>
  );
}
