import { useRef, useState } from 'react';
import { App, Flex, Form, Input, Modal, Spin, Switch, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import { useAuth } from '../../auth/auth-provider';
import { AttachmentField } from '../../components/attachment-field';
import { ModalFooter } from '../../components/modal-footer';
import type { QuickMessageCreateBody, QuickMessageView } from '../../api/types';
import { useLoadOnOpen } from '../../components/use-load-on-open';
import { useSaveRecord } from '../../components/use-save-record';
import { EmojiButton } from './emoji-button';

/** A quick reply as GET /api/quick-messages answers it. */
export type QuickMessageRecord = QuickMessageView;

interface FormValues {
  shortcode: string;
  message: string;
  geral: boolean;
}

export interface QuickMessageModalProps {
  open: boolean;
  /** null creates a reply. */
  quickMessageId: number | null;
  onClose(): void;
}

const DEFAULTS: FormValues = { shortcode: '', message: '', geral: false };

/**
 * Create or edit a quick reply: shortcode, a 7-row message with emoji inserted at the cursor, one
 * attachment (uploaded after the text is saved) and, for admins, whether everyone may use it.
 */
export function QuickMessageModal({ open, quickMessageId, onClose }: QuickMessageModalProps) {
  const { t } = useTranslation('quickMessages');
  const { message } = App.useApp();
  const { user } = useAuth();
  const [form] = Form.useForm<FormValues>();
  const [storedName, setStoredName] = useState<string | null>(null);
  const [pending, setPending] = useState<File | null>(null);
  const [removeStored, setRemoveStored] = useState(false);
  const textArea = useRef<TextAreaRef>(null);
  const isAdmin = Boolean(user && (user.profile === 'admin' || user.super));

  const { saving, startFrom, submit: save } = useSaveRecord<QuickMessageRecord>({
    path: '/quick-messages',
    form,
    errorText: (err) => errorText(err, t),
    savedText: t('common:toasts.success'),
    onSaved: onClose,
  });

  const loading = useLoadOnOpen<QuickMessageRecord>({
    open,
    path: quickMessageId === null ? null : `/quick-messages/${quickMessageId}`,
    onOpen: () => {
      form.resetFields();
      startFrom(quickMessageId);
      setStoredName(null);
      setPending(null);
      setRemoveStored(false);
    },
    onLoad: (record) => {
      form.setFieldsValue({ shortcode: record.shortcode, message: record.message, geral: record.geral });
      setStoredName(record.mediaName);
    },
    errorText: (err) => errorText(err, t),
    onClose,
  });

  const insertEmoji = (emoji: string) => {
    const element = textArea.current?.resizableTextArea?.textArea;
    const current = form.getFieldValue('message') as string;
    const start = element?.selectionStart ?? current.length;
    const end = element?.selectionEnd ?? current.length;
    form.setFieldValue('message', current.slice(0, start) + emoji + current.slice(end));
    // The caret goes right after the emoji, once the new value is rendered.
    window.requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  const submit = (values: FormValues) => {
    const body: QuickMessageCreateBody = { shortcode: values.shortcode.trim(), message: values.message, ...(isAdmin ? { geral: values.geral } : {}) };
    return save(body, { attachment: { file: pending, removeStored, fields: { typeArch: 'quickMessage' } } });
  };

  const attachmentName = pending?.name ?? (removeStored ? null : storedName);
  const clearAttachment = () => {
    setPending(null);
    setRemoveStored(true);
  };

  return (
    <Modal
      open={open}
      title={t(quickMessageId === null ? 'modal.addTitle' : 'modal.editTitle')}
      onCancel={onClose}
      forceRender
      width={560}
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} />}
    >
      <Spin spinning={loading}>
        <Form<FormValues> form={form} name="quick-message" layout="vertical" initialValues={DEFAULTS} onFinish={submit} disabled={saving} requiredMark={false}>
          <Form.Item name="shortcode" label={t('modal.shortcode')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input autoFocus autoComplete="off" maxLength={100} />
          </Form.Item>
          <Form.Item label={t('modal.message')} htmlFor="quick-message_message">
            {/* The emoji button sits in the text box's corner, like a chat composer's. */}
            <div style={{ position: 'relative' }}>
              <Form.Item name="message" noStyle>
                <Input.TextArea id="quick-message_message" ref={textArea} rows={7} maxLength={10000} style={{ paddingInlineEnd: 40, resize: 'vertical' }} />
              </Form.Item>
              <div style={{ position: 'absolute', insetInlineEnd: 4, bottom: 4 }}>
                <EmojiButton onPick={insertEmoji} />
              </div>
            </div>
          </Form.Item>
          <Form.Item label={t('modal.attachment')} extra={t('modal.attachmentHint')}>
            <AttachmentField
              fileName={attachmentName}
              onPick={setPending}
              onTooLarge={() => void message.error(t('validation.tooLarge'))}
              onRemove={clearAttachment}
              labels={{ attach: t('modal.attach'), replace: t('modal.replaceAttachment'), remove: t('modal.removeAttachment') }}
              testId="quick-message-attachment"
            />
          </Form.Item>
          {isAdmin ? (
            <Form.Item label={t('modal.geral')} style={{ marginBottom: 0 }}>
              <Flex align="center" gap={12}>
                <Form.Item name="geral" valuePropName="checked" noStyle>
                  <Switch aria-label={t('modal.geral')} />
                </Form.Item>
                <Typography.Text type="secondary">{t('modal.geralHint')}</Typography.Text>
              </Flex>
            </Form.Item>
          ) : null}
        </Form>
      </Spin>
    </Modal>
  );
}
