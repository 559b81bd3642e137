import { useEffect, useState } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import type { QueueOptionCreateBody, QueueOptionUpdateBody } from '../../api/types';
import type { QueueOptionNode } from './queues.types';

/** What the form edits: a new option (under a parent or on the first level) or an existing one. */
export type OptionTarget =
  | { mode: 'create'; queueId: number; parent: QueueOptionNode | null }
  | { mode: 'edit'; option: QueueOptionNode };

interface FormValues {
  option: string;
  title: string;
  message: string;
}

/** The bot reads '0' as "previous menu" and '#' as "main menu". */
const RESERVED_KEYS = ['0', '#'];

/** The small form for one chatbot option; it saves at once and reports back. */
export function OptionFormModal({ target, onClose, onSaved }: { target: OptionTarget | null; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation('queues');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target.mode === 'edit') form.setFieldsValue({ option: target.option.option, title: target.option.title, message: target.option.message });
  }, [target, form]);

  const submit = async (values: FormValues) => {
    if (!target) return;
    setSaving(true);
    try {
      const body = { option: values.option.trim(), title: values.title.trim(), message: values.message?.trim() ?? '' } satisfies QueueOptionUpdateBody;
      if (target.mode === 'edit') await api.put(`/queue-options/${target.option.id}`, body);
      else await api.post('/queue-options', { ...body, queueId: target.queueId, parentId: target.parent?.id ?? -1 } satisfies QueueOptionCreateBody);
      onSaved();
      onClose();
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setSaving(false);
    }
  };

  const title =
    target?.mode === 'edit'
      ? t('options.form.editTitle')
      : target?.parent
        ? t('options.form.addChildTitle', { parent: target.parent.title })
        : t('options.form.addTitle');
  const required = { required: true, whitespace: true, message: t('validation.required') };

  return (
    <Modal
      open={target !== null}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={saving}
      forceRender
      destroyOnHidden={false}
    >
      <Form<FormValues> form={form} name="queue-option" layout="vertical" onFinish={submit} disabled={saving} requiredMark={false} initialValues={{ option: '', title: '', message: '' }}>
        <Form.Item
          name="option"
          label={t('options.form.option')}
          extra={t('options.form.optionHint')}
          rules={[
            required,
            { max: 20, message: t('validation.tooLong') },
            { validator: async (_, value: string) => (RESERVED_KEYS.includes(value?.trim()) ? Promise.reject(new Error(t('validation.reservedKey'))) : undefined) },
          ]}
        >
          <Input autoFocus autoComplete="off" style={{ maxWidth: 160 }} />
        </Form.Item>
        <Form.Item name="title" label={t('options.form.title')} rules={[required, { max: 100, message: t('validation.tooLong') }]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="message" label={t('options.form.message')} rules={[{ max: 5000, message: t('validation.tooLong') }]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
