import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Descriptions, Divider, Drawer, Flex, Spin, Typography } from 'antd';
import { EditOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { queryKeys } from '../../../api/query-keys';
import type { Ticket } from '../../../api/types';
import { useAuth } from '../../../auth/auth-provider';
import { useApiQuery } from '../../../hooks/use-api-query';
import { registerTranslations } from '../../../i18n';
import { ContactModal } from '../../contacts/contact-modal';
import { contactsTranslations } from '../../contacts/contacts.i18n';
import type { ContactDetail } from '../../contacts/contacts.types';
import { TicketNotes } from './ticket-notes';

// The contact modal speaks the contacts page's namespace, which may not be loaded yet.
registerTranslations('contacts', contactsTranslations);

const DRAWER_WIDTH = 340;

export interface ContactDrawerProps {
  open: boolean;
  ticket: Ticket;
  readOnly: boolean;
  onClose(): void;
}

/** The right drawer: the contact's picture, name, number and e-mail, extra fields, and the ticket notes. */
export function ContactDrawer({ open, ticket, readOnly, onClose }: ContactDrawerProps) {
  const { t } = useTranslation('conversation');
  const { user, realtime } = useAuth();
  const companyId = user?.companyId;
  const contactId = ticket.contactId;
  const queryClient = useQueryClient();
  const contact = useApiQuery<ContactDetail>(`/contacts/${contactId}`, { enabled: open, failureText: (err) => errorText(err, t) }).data ?? null;
  const [editing, setEditing] = useState(false);

  // A saved contact (here or on the contacts page) is read again.
  useEffect(() => {
    if (!open || companyId === undefined) return;
    return realtime.on(`company-${companyId}-contact`, (data) => {
      const frame = data as { action?: string; contact?: { id: number } };
      if (frame.action === 'update' && frame.contact?.id === contactId) void queryClient.invalidateQueries({ queryKey: queryKeys.records(`/contacts/${contactId}`) });
    });
  }, [open, companyId, contactId, realtime, queryClient]);

  const shown = contact ?? { ...ticket.contact, extraInfo: null };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="right"
      title={t('drawer.title')}
      size={DRAWER_WIDTH}
      getContainer={false}
      styles={{ wrapper: { maxWidth: '100%' }, body: { padding: 16 } }}
      data-testid="contact-drawer"
    >
      <Flex vertical align="center" gap={4}>
        <Avatar src={shown.profilePicUrl || undefined} icon={<UserOutlined />} size={96} />
        <Typography.Title level={5} style={{ margin: '8px 0 0', textAlign: 'center', overflowWrap: 'anywhere' }}>
          {shown.name}
        </Typography.Title>
        <Typography.Text copyable={shown.number ? { text: shown.number } : false}>{shown.number}</Typography.Text>
        {shown.email ? <Typography.Link href={`mailto:${shown.email}`}>{shown.email}</Typography.Link> : null}
        {readOnly ? null : (
          <Button icon={<EditOutlined />} onClick={() => setEditing(true)} style={{ marginTop: 8 }}>
            {t('drawer.editContact')}
          </Button>
        )}
      </Flex>
      <Divider titlePlacement="start" plain>
        {t('drawer.extraInfo')}
      </Divider>
      {shown.extraInfo === null ? (
        <Flex justify="center">
          <Spin size="small" />
        </Flex>
      ) : shown.extraInfo.length === 0 ? (
        <Typography.Text type="secondary">{t('drawer.noExtraInfo')}</Typography.Text>
      ) : (
        <Descriptions column={1} size="small" bordered items={shown.extraInfo.map((info) => ({ key: info.id, label: info.name, children: info.value }))} />
      )}
      <Divider titlePlacement="start" plain>
        {t('notes.title')}
      </Divider>
      {open ? <TicketNotes ticket={ticket} /> : null}
      <ContactModal open={editing} contactId={contactId} onClose={() => setEditing(false)} />
    </Drawer>
  );
}
