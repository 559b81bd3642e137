import { useEffect } from 'react';
import { App, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, errorText, ModalFooter, useApiQuery, useAuth, useSubmitGuard } from 'atende/web';
import type { ChatView } from './chat-cache';

interface ChatForm {
  title: string;
  users: number[];
}

export interface ChatModalProps {
  open: boolean;
  /** The chat to edit (its owner only); null for a new one. */
  chat: ChatView | null;
  onClose(): void;
  onSaved(chat: ChatView, created: boolean): void;
}

/** 'Nova' and the owner's edit: a title and the other members, chosen among the company's users. */
export function ChatModal({ open, chat, onClose, onSaved }: ChatModalProps) {
  const { t } = useTranslation('internal-chat');
  const { user } = useAuth();
  const { message } = App.useApp();
  const [form] = Form.useForm<ChatForm>();
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));
  const people = useApiQuery<{ users: { id: number; name: string }[] }>('/users/list', {
    enabled: open,
    failureText: () => t('modal.usersFailed'),
  });
  const options = (people.data?.users ?? []).filter((u) => u.id !== user?.id).map((u) => ({ value: u.id, label: u.name }));

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      chat ? { title: chat.title, users: chat.users.map((m) => m.userId).filter((id) => id !== user?.id) } : { title: '', users: [] },
    );
  }, [open, chat, form, user?.id]);

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const body = { title: values.title.trim(), users: values.users };
    await guard(
      () => (chat ? api.put<ChatView>(`/chats/${chat.id}`, body) : api.post<ChatView>('/chats', body)),
      (saved) => {
        void message.success(t('modal.saved'));
        onSaved(saved, chat === null);
        onClose();
      },
    );
  };

  return (
    <Modal
      open={open}
      title={t(chat ? 'modal.editTitle' : 'modal.addTitle')}
      onCancel={onClose}
      destroyOnHidden
      // The composer of the chat just opened takes the focus, not the 'Nova' button.
      focusTriggerAfterClose={false}
      footer={<ModalFooter onCancel={onClose} onSave={() => void save()} saving={saving} loading={false} saveLabel={t('modal.save')} />}
    >
      <Form form={form} layout="vertical" onFinish={() => void save()} data-testid="chat-form">
        <Form.Item name="title" label={t('modal.title')} rules={[{ required: true, whitespace: true, message: t('modal.titleRequired') }]}>
          <Input maxLength={100} autoFocus />
        </Form.Item>
        <Form.Item name="users" label={t('modal.users')} rules={[{ required: true, type: 'array', min: 1, message: t('modal.usersRequired') }]}>
          <Select
            mode="multiple"
            options={options}
            loading={people.isLoading}
            placeholder={t('modal.usersPlaceholder')}
            optionFilterProp="label"
            aria-label={t('modal.users')}
            data-testid="chat-users"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
