import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Flex, Form, Input, Spin, Typography, theme } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { errorText } from '../../../api/errors';
import { queryKeys } from '../../../api/query-keys';
import type { Ticket, TicketNote, TicketNoteCreateBody } from '../../../api/types';
import { useAuth } from '../../../auth/auth-provider';
import { useSubmitGuard } from '../../../components/use-submit-guard';
import { useApiQuery } from '../../../hooks/use-api-query';
import { useCompanyClock } from '../../../layout/use-company-clock';

/** Spec §5 and §9: a note has 2 characters at least; the list is at most 200 px high. */
const NOTE_MIN = 2;
const LIST_MAX_HEIGHT = 200;

/** The notes about the ticket's contact: add (2+ characters), read, delete own (admins any). */
export function TicketNotes({ ticket }: { ticket: Pick<Ticket, 'id' | 'contactId'> }) {
  const { t } = useTranslation('conversation');
  const { message, modal } = App.useApp();
  const { token } = theme.useToken();
  const clock = useCompanyClock();
  const { user } = useAuth();
  const [form] = Form.useForm<{ note: string }>();
  const queryClient = useQueryClient();
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));
  const admin = user?.profile === 'admin' || user?.super === true;

  const query = { ticketId: ticket.id, contactId: ticket.contactId };
  const notesQuery = useApiQuery<TicketNote[]>('/ticket-notes/list', { query, failureText: (err) => errorText(err, t) });
  const notes = notesQuery.data ?? [];
  const loading = notesQuery.isFetching;
  const setNotes = (change: (current: TicketNote[]) => TicketNote[]) =>
    queryClient.setQueryData<TicketNote[]>(queryKeys.records('/ticket-notes/list', query), (current) => change(current ?? []));

  const add = ({ note }: { note: string }) =>
    guard(
      () => api.post<TicketNote>('/ticket-notes', { note: note.trim(), ticketId: ticket.id, contactId: ticket.contactId } satisfies TicketNoteCreateBody),
      (created) => {
        setNotes((current) => [created, ...current.filter((n) => n.id !== created.id)]);
        form.resetFields();
        void message.success(t('notes.added'));
      },
    );

  const remove = (note: TicketNote) =>
    modal.confirm({
      title: t('notes.deleteTitle'),
      content: note.note,
      okText: t('common:actions.delete'),
      cancelText: t('common:actions.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await api.delete(`/ticket-notes/${note.id}`);
          setNotes((current) => current.filter((n) => n.id !== note.id));
          void message.success(t('notes.deleted'));
        } catch (err) {
          void message.error(errorText(err, t));
        }
      },
    });

  return (
    <Flex vertical gap={8} data-testid="ticket-notes">
      <Form form={form} onFinish={(values) => void add(values)} requiredMark={false}>
        <Form.Item
          name="note"
          validateFirst
          rules={[
            { required: true, whitespace: true, message: t('notes.required') },
            { min: NOTE_MIN, transform: (value?: string) => value?.trim(), message: t('notes.tooShort') },
          ]}
          style={{ marginBottom: 8 }}
        >
          <Input.TextArea rows={2} placeholder={t('notes.placeholder')} aria-label={t('notes.placeholder')} maxLength={5000} />
        </Form.Item>
        <Flex justify="flex-end">
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('notes.add')}
          </Button>
        </Flex>
      </Form>
      <div style={{ maxHeight: LIST_MAX_HEIGHT, overflowY: 'auto', border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius }} data-testid="notes-list">
        {loading ? (
          <Flex justify="center" style={{ padding: 16 }}>
            <Spin size="small" />
          </Flex>
        ) : notes.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notes.empty')} style={{ margin: '12px 0' }} />
        ) : (
          notes.map((note, i) => (
            <Flex
              key={note.id}
              align="flex-start"
              gap={8}
              data-testid="note"
              style={{ padding: '6px 10px', borderTop: i === 0 ? undefined : `1px solid ${token.colorBorderSecondary}` }}
            >
              <Flex vertical style={{ minWidth: 0, flex: 1 }}>
                <Typography.Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{note.note}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('notes.by', { name: note.user?.name ?? (note.apiToken ? t('messages.viaToken', { name: note.apiToken.name }) : '—'), date: clock.format(note.createdAt) })}
                </Typography.Text>
              </Flex>
              {admin || note.userId === user?.id ? (
                <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('notes.deleteLabel')} onClick={() => remove(note)} />
              ) : null}
            </Flex>
          ))
        )}
      </div>
    </Flex>
  );
}
