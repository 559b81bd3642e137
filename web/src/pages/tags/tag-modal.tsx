import { App, ColorPicker, Flex, Form, Input, Modal, Spin, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { useAuth } from '../../auth/auth-provider';
import type { TagCreateBody, TagView } from '../../api/types';
import { ModalFooter } from '../../components/modal-footer';
import { useLoadOnOpen } from '../../components/use-load-on-open';
import { useSubmitGuard } from '../../components/use-submit-guard';

/** A tag as GET /api/tags answers it. */
export type TagRecord = TagView;

interface FormValues {
  name: string;
  color: string;
  kanban: boolean;
}

export interface TagModalProps {
  open: boolean;
  /** null creates a tag. */
  tagId: number | null;
  onClose(): void;
}

const DEFAULT_COLOR = '#5C59A0';
const DEFAULTS: FormValues = { name: '', color: DEFAULT_COLOR, kanban: false };
const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** Create or edit a tag: name, colour and, for admins and supervisors (spec §6), the Kanban switch. */
export function TagModal({ open, tagId, onClose }: TagModalProps) {
  const { t } = useTranslation('tags');
  const { message } = App.useApp();
  const { user } = useAuth();
  const [form] = Form.useForm<FormValues>();
  const creating = tagId === null;
  const kanbanAllowed = Boolean(user && (user.profile === 'admin' || user.profile === 'supervisor' || user.super));

  const loading = useLoadOnOpen<TagRecord>({
    open,
    path: tagId === null ? null : `/tags/${tagId}`,
    onOpen: () => form.resetFields(),
    onLoad: (tag) => form.setFieldsValue({ name: tag.name, color: tag.color, kanban: tag.kanban === 1 }),
    errorText: (err) => errorText(err, t),
    onClose,
  });
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  const submit = (values: FormValues) => {
    const body: TagCreateBody = { name: values.name.trim(), color: values.color, ...(kanbanAllowed ? { kanban: values.kanban ? 1 : 0 } : {}) };
    return guard(
      () => (creating ? api.post('/tags', body) : api.put(`/tags/${tagId}`, body)),
      () => {
        void message.success(t('common:toasts.success'));
        onClose();
      },
    );
  };

  return (
    <Modal
      open={open}
      title={t(creating ? 'modal.addTitle' : 'modal.editTitle')}
      onCancel={onClose}
      forceRender
      width={480}
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} />}
    >
      <Spin spinning={loading}>
        <Form<FormValues> form={form} name="tag" layout="vertical" initialValues={DEFAULTS} onFinish={submit} disabled={saving} requiredMark={false}>
          <Form.Item
            name="name"
            label={t('modal.name')}
            rules={[
              { required: true, whitespace: true, message: t('validation.required') },
              { min: 3, transform: trim, message: t('validation.tooShort') },
            ]}
          >
            <Input autoFocus autoComplete="off" maxLength={100} />
          </Form.Item>
          <Form.Item name="color" label={t('modal.color')} getValueFromEvent={(color: { toHexString(): string }) => color.toHexString()}>
            <ColorPicker showText disabledAlpha disabledFormat format="hex" data-testid="tag-color-picker" />
          </Form.Item>
          {kanbanAllowed ? (
            <Form.Item label={t('modal.kanban')}>
              <Flex align="center" gap={12}>
                <Form.Item name="kanban" valuePropName="checked" noStyle>
                  <Switch aria-label={t('modal.kanban')} />
                </Form.Item>
                <Typography.Text type="secondary">{t('modal.kanbanHint')}</Typography.Text>
              </Flex>
            </Form.Item>
          ) : null}
        </Form>
      </Spin>
    </Modal>
  );
}
