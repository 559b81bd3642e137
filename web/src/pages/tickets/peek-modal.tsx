import { Suspense, lazy } from 'react';
import { Flex, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '../../api/types';

const Conversation = lazy(() => import('./conversation/conversation'));

export interface PeekModalProps {
  ticket: Ticket | null;
  onClose(): void;
}

/** An admin's look at a conversation from the list, without opening (or accepting) the ticket. */
export function PeekModal({ ticket, onClose }: PeekModalProps) {
  const { t } = useTranslation('tickets');
  return (
    <Modal
      open={ticket !== null}
      title={ticket ? t('peek.title', { name: ticket.contact?.name ?? '' }) : ''}
      onCancel={onClose}
      footer={null}
      width={860}
      destroyOnHidden
      styles={{ body: { height: 'min(70dvh, 720px)', display: 'flex', flexDirection: 'column', minHeight: 0 } }}
    >
      {ticket ? (
        <Suspense
          fallback={
            <Flex flex={1} align="center" justify="center">
              <Spin />
            </Flex>
          }
        >
          <Flex vertical flex={1} style={{ minHeight: 0 }} data-testid="peek-conversation">
            <Conversation ticketUuid={ticket.uuid} readOnly />
          </Flex>
        </Suspense>
      ) : null}
    </Modal>
  );
}
