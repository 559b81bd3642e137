import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Avatar, Button, Flex, Form, Modal, Select, Spin, Typography } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import type { OtherOpenTicket, Ticket, TicketCreateBody } from '../../api/types';
import { useAuth } from '../../auth/auth-provider';
import { ModalFooter } from '../../components/modal-footer';
import { useContactSearch, type ContactChoice } from '../../components/use-contact-search';
import { useSubmitGuard } from '../../components/use-submit-guard';
import { registerTranslations } from '../../i18n';
import { ContactModal } from '../contacts/contact-modal';
import { otherOpenTicket } from './other-open-ticket';
import { initials, isAdminUser } from './ticket-rules';
import { ticketsTranslations } from './tickets.i18n';
import { useChoices, useQueueChoices } from './use-choices';

// The contacts page opens this modal too: it brings its own strings.
registerTranslations('tickets', ticketsTranslations);

/** A search that looks like a phone number prefills the new contact's number, else its name. */
const LOOKS_LIKE_NUMBER = /^[\d\s+().\-/]+$/;

export interface NewTicketModalProps {
  open: boolean;
  onClose(): void;
  /** A contact chosen beforehand (the contacts page's "start ticket"). */
  contact?: ContactChoice | null;
}

interface FormValues {
  contactId?: number;
  queueId?: number;
  whatsappId?: number;
}

/**
 * Starts a conversation with a contact: contact (searched, or added here), queue (required unless
 * admin) and connection. When the contact already has an open ticket, the user's own opens;
 * another user's is named with its queue. A contact added here starts its ticket at once.
 */
export function NewTicketModal({ open, onClose, contact }: NewTicketModalProps) {
  const { t } = useTranslation('tickets');
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const [form] = Form.useForm<FormValues>();
  const [conflict, setConflict] = useState<OtherOpenTicket | null>(null);
  // The chosen contact stays an option once the search moves on.
  const [picked, setPicked] = useState<ContactChoice | null>(null);
  const [addingContact, setAddingContact] = useState(false);
  const admin = user !== null && isAdminUser(user);
  const queues = useQueueChoices(open);
  const connections = useChoices('/whatsapp', open);
  const search = useContactSearch(open);
  const { setText } = search;
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  const userRef = useRef(user);
  userRef.current = user;

  // Each opening starts afresh: the given contact, the user's only queue, the user's connection.
  useEffect(() => {
    if (!open) return;
    const me = userRef.current;
    form.resetFields();
    setConflict(null);
    setText('');
    setPicked(contact ?? null);
    const onlyQueue = me?.queues.length === 1 ? me.queues[0]!.id : undefined;
    form.setFieldsValue({ contactId: contact?.id, queueId: onlyQueue, whatsappId: me?.whatsappId ?? undefined });
  }, [open, contact, form, setText]);

  const contactOptions = useMemo(() => {
    const list = picked && !search.found.some((c) => c.id === picked.id) ? [picked, ...search.found] : search.found;
    return list.map((c) => ({
      value: c.id,
      label: c.name,
      title: c.name,
      render: (
        <Flex align="center" gap={8}>
          <Avatar size="small" src={c.profilePicUrl || undefined} alt="">
            {initials(c.name)}
          </Avatar>
          <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>
            {c.name}
          </Typography.Text>
          <Typography.Text type="secondary">{c.number}</Typography.Text>
        </Flex>
      ),
    }));
  }, [picked, search.found]);

  // The contact modal's save opens the conversation (spec §2): the new contact is chosen and the form sent.
  const contactCreated = (created: ContactChoice) => {
    setPicked(created);
    form.setFieldsValue({ contactId: created.id });
    form.submit();
  };
  const typed = search.text.trim();
  const prefill = LOOKS_LIKE_NUMBER.test(typed) ? { number: typed } : { name: typed };

  const opened = (uuid: string) => {
    onClose();
    navigate(`/tickets/${uuid}`);
  };

  const submit = (values: FormValues) => {
    setConflict(null);
    const body = { contactId: values.contactId, queueId: values.queueId, whatsappId: values.whatsappId, status: 'open' } satisfies TicketCreateBody;
    return guard(
      async () => {
        try {
          return await api.post<Ticket>('/tickets', body);
        } catch (err) {
          const existing = otherOpenTicket(err);
          if (!existing) throw err;
          return existing;
        }
      },
      (ticket) => {
        // Ours (new, or already open with us) opens; someone else's is named in the modal.
        if ('companyId' in ticket || ticket.userId === user?.id) opened(ticket.uuid);
        else setConflict(ticket);
      },
    );
  };

  // Nobody by that name or number: the person can be added right there.
  let notFound: ReactNode = (
    <Flex vertical align="start" gap={4}>
      {t('newTicketModal.noContacts')}
      <Button type="link" size="small" icon={<UserAddOutlined />} onClick={() => setAddingContact(true)} style={{ paddingInline: 0 }}>
        {t('newTicketModal.addContact')}
      </Button>
    </Flex>
  );
  if (search.tooShort) notFound = t('newTicketModal.typeMore');
  else if (search.searching) notFound = <Spin size="small" />;

  return (
    <Modal
      open={open}
      title={t('newTicketModal.title')}
      onCancel={onClose}
      // Unmounted when closed: a closed dialog left in the page after an open one takes its Escape key.
      destroyOnHidden
      width={480}
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={false} saveLabel={t('newTicketModal.ok')} />}
    >
      <Form<FormValues> form={form} layout="vertical" onFinish={submit} requiredMark={false} style={{ marginTop: 16 }}>
        <Form.Item
          name="contactId"
          label={t('newTicketModal.contact')}
          rules={[{ required: true, message: t('newTicketModal.contactRequired') }]}
        >
          <Select
            showSearch={{ filterOption: false, onSearch: search.setText }}
            placeholder={t('newTicketModal.contactPlaceholder')}
            options={contactOptions}
            optionRender={(option) => option.data.render}
            notFoundContent={notFound}
            onChange={(id: number) => {
              setConflict(null);
              setPicked(search.found.find((c) => c.id === id) ?? picked);
            }}
            aria-label={t('newTicketModal.contact')}
            data-testid="new-ticket-contact"
          />
        </Form.Item>
        <Form.Item name="queueId" label={t('newTicketModal.queue')} rules={[{ required: !admin, message: t('newTicketModal.queueRequired') }]}>
          <Select
            allowClear
            placeholder={t('newTicketModal.queueRequired')}
            loading={!queues.ready}
            options={queues.items.map((q) => ({ value: q.id, label: q.name }))}
            aria-label={t('newTicketModal.queue')}
          />
        </Form.Item>
        <Form.Item name="whatsappId" label={t('newTicketModal.connection')}>
          <Select
            allowClear
            placeholder={t('newTicketModal.defaultConnection')}
            loading={!connections.ready}
            options={connections.items.map((c) => ({ value: c.id, label: c.name }))}
            aria-label={t('newTicketModal.connection')}
          />
        </Form.Item>
      </Form>
      {conflict ? (
        <Alert
          type="warning"
          showIcon
          data-testid="new-ticket-conflict"
          title={
            conflict.user
              ? t('newTicketModal.alreadyAttended', { user: conflict.user.name, queue: conflict.queue?.name ?? t('noQueue') })
              : t('newTicketModal.alreadyWaiting', { queue: conflict.queue?.name ?? t('noQueue') })
          }
        />
      ) : null}
      {/* Mounted on demand, so it opens above this dialog. */}
      {addingContact ? <ContactModal open contactId={null} prefill={prefill} onClose={() => setAddingContact(false)} onCreated={contactCreated} /> : null}
    </Modal>
  );
}
