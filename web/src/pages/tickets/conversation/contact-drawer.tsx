import { useEffect, useState } from 'react';
import { App, Avatar, Button, Descriptions, Divider, Drawer, Flex, Spin, Typography } from 'antd';
import { EditOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { errorText } from '../../../api/errors';
import type { Ticket } from '../../../api/types';
import { useAuth } from '../../../auth/auth-provider';
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
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const companyId = user?.companyId;
  const contactId = ticket.contactId;
  const [contact, setContact] = useState<ContactDetail | null>(null);
  const [editing, setEditing] = useState(false);
  const [version, setVersion] = useState(0);

  // A saved contact (here or on the contacts page) is read again.
  useEffect(() => {
    if (!open || companyId === undefined) return;
    return realtime.on(`company-${companyId}-contact`, (data) => {
      const frame = data as { action?: string; contact?: { id: number } };
      if (frame.action === 'update' && frame.contact?.id === contactId) setVersion((v) => v + 1);
    });
  }, [open, companyId, contactId, realtime]);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    api
      .get<ContactDetail>(`/contacts/${contactId}`, undefined, { signal: controller.signal })
      .then(setContact)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) void message.error(errorText(err, t));
      });
    return () => controller.abort();
  }, [open, contactId, version, message, t]);

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
