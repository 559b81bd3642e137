import { useEffect, useState } from 'react';
import { App, Button, Flex, Form, Modal, Select, Typography } from 'antd';
import { PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, errorText, queryKeys, useApiQuery, useAuth, useQueryClient, type ComposerActionProps } from 'atende/web';
import { byName, fileListChannel, type FileListEvent, type FileListPage, type FileListSent } from './file-list-record';

/**
 * The composer's file-list tool (its button is the host's): a picker of the company's lists; the
 * chosen one is sent into the ticket (its message, then each file in order) by the server's send queue.
 */
export default function SendFileList({ ticket, onClose }: ComposerActionProps) {
  return <SendFileListModal ticketId={ticket.id} onClose={onClose} />;
}

function SendFileListModal({ ticketId, onClose }: { ticketId: number; onClose(): void }) {
  const { t } = useTranslation('files');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  // The spec's full list for selects: the server answers the caller's company whatever it says.
  const query = { companyId: user?.companyId ?? 0 };
  const lists = useApiQuery<FileListPage>('/files', { query, failureText: () => t('send.loadFailed') });
  const files = lists.data?.files ?? [];
  const selected = files.find((f) => f.id === chosen) ?? null;
  const admin = user?.profile === 'admin' || user?.super;

  // Lists added, changed or removed meanwhile show in the picker.
  const companyId = user?.companyId;
  useEffect(() => {
    if (companyId === undefined) return;
    return realtime.on(fileListChannel(companyId), (data) => {
      const frame = data as FileListEvent;
      queryClient.setQueryData<FileListPage>(queryKeys.records('/files', { companyId }), (answer) => {
        if (!answer) return answer;
        const others = answer.files.filter((f) => f.id !== (frame.action === 'delete' ? frame.fileListId : frame.fileList.id));
        return { ...answer, files: frame.action === 'delete' ? others : [...others, frame.fileList].sort(byName) };
      });
    });
  }, [companyId, realtime, queryClient]);

  const send = async () => {
    if (selected === null || sending) return;
    setSending(true);
    try {
      await api.post<FileListSent>(`/files/${selected.id}/send`, { ticketId });
      void message.success(t('send.sent'));
      onClose();
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setSending(false);
    }
  };

  const withFile = selected?.options.filter((o) => o.path) ?? [];
  return (
    <Modal
      open
      title={t('send.title')}
      onCancel={onClose}
      width={480}
      footer={
        <Flex justify="space-between" align="center" gap={8} wrap>
          {admin ? <Typography.Link href="/files">{t('send.manage')}</Typography.Link> : <span />}
          <Flex gap={8}>
            <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
            <Button type="primary" onClick={() => void send()} loading={sending} disabled={selected === null}>
              {t('send.submit')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      <Form layout="vertical" onFinish={() => void send()}>
        <Form.Item label={t('send.list')} htmlFor="send-file-list-select" style={{ marginBottom: selected ? 12 : 0 }}>
          <Select
            id="send-file-list-select"
            showSearch={{ optionFilterProp: 'label' }}
            autoFocus
            loading={lists.isPending}
            placeholder={t('send.placeholder')}
            notFoundContent={lists.isPending ? null : t('send.noLists')}
            options={files.map((f) => ({ value: f.id, label: f.name }))}
            value={chosen ?? undefined}
            onChange={(id: number) => setChosen(id)}
            data-testid="send-file-list-select"
          />
        </Form.Item>
        {selected ? (
          <Flex vertical gap={4} data-testid="send-file-list-preview">
            <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} style={{ marginBottom: 4, whiteSpace: 'pre-wrap' }}>
              {selected.message}
            </Typography.Paragraph>
            {withFile.map((o) => (
              <Typography.Text key={o.id} ellipsis>
                <PaperClipOutlined /> {o.name} <Typography.Text type="secondary">({o.mediaName})</Typography.Text>
              </Typography.Text>
            ))}
          </Flex>
        ) : null}
      </Form>
    </Modal>
  );
}
