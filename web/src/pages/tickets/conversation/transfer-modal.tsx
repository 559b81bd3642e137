import { useEffect, useState } from 'react';
import { App, Form, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { errorText } from '../../../api/errors';
import type { QueueRef, Ticket, TicketUpdateBody, UserNameView } from '../../../api/types';
import { ModalFooter } from '../../../components/modal-footer';
import { useSubmitGuard } from '../../../components/use-submit-guard';
import { useApiQuery } from '../../../hooks/use-api-query';

/** User search starts at this many typed characters (spec §5). */
const USER_SEARCH_MIN = 3;

interface FormValues {
  queueId?: number;
  userId?: number;
}

export interface TransferModalProps {
  open: boolean;
  ticket: Ticket;
  onClose(): void;
  onTransferred(ticket: Ticket): void;
}

/** Transfer a ticket to a queue (required) and, optionally, a user found by name. */
export function TransferModal({ open, ticket, onClose, onTransferred }: TransferModalProps) {
  const { t } = useTranslation('conversation');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [search, setSearch] = useState('');
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setSearch('');
  }, [open, form]);
  // Each opening reads the queues and users again (they may have changed since).
  const failureText = (err: unknown) => errorText(err, t);
  const queueList = useApiQuery<QueueRef[]>('/queue', { enabled: open, failureText });
  const userList = useApiQuery<{ users: UserNameView[] }>('/users/list', { enabled: open, failureText });
  const queues = queueList.data ?? [];
  const users = userList.data?.users ?? [];
  const loading = queueList.isFetching || userList.isFetching;

  const term = search.trim().toLowerCase();
  const selectedUser = Form.useWatch('userId', form);
  const userOptions = users
    .filter((u) => u.id === selectedUser || (term.length >= USER_SEARCH_MIN && u.name.toLowerCase().includes(term)))
    .map((u) => ({ value: u.id, label: u.name }));

  const submit = (values: FormValues) =>
    guard(
      // Without a user the server puts the ticket back to pending in the new queue.
      () => api.put<Ticket>(`/tickets/${ticket.id}`, { queueId: values.queueId, userId: values.userId ?? null } satisfies TicketUpdateBody),
      (next) => {
        void message.success(t('transfer.done'));
        onClose();
        onTransferred(next);
      },
    );

  return (
    <Modal
      open={open}
      title={t('transfer.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} saveLabel={t('transfer.submit')} />}
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)} requiredMark={false}>
        <Form.Item name="queueId" label={t('transfer.queue')} rules={[{ required: true, message: t('transfer.queueRequired') }]}>
          <Select
            loading={loading}
            placeholder={t('transfer.queueRequired')}
            options={queues.map((q) => ({ value: q.id, label: q.name }))}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
        <Form.Item name="userId" label={t('transfer.user')} extra={<Typography.Text type="secondary">{t('transfer.userHint')}</Typography.Text>}>
          <Select
            allowClear
            placeholder={t('transfer.userPlaceholder')}
            showSearch={{ filterOption: false, onSearch: setSearch, searchValue: search }}
            options={userOptions}
            notFoundContent={term.length >= USER_SEARCH_MIN ? t('transfer.noUsers') : null}
            onChange={() => setSearch('')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
