import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, errorText, ModalFooter, useSubmitGuard } from 'atende/web';

export interface OptOutModalProps {
  open: boolean;
  onClose(): void;
}

/** An admin puts a number on the opt-out list (kept as canonical digits by the server). */
export function OptOutModal({ open, onClose }: OptOutModalProps) {
  const { t } = useTranslation('campaigns');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ number: string }>();
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  const submit = ({ number }: { number: string }) =>
    guard(
      () => api.post('/campaign-opt-outs', { number: number.trim() }),
      () => {
        void message.success(t('optOuts.saved'));
        onClose();
      },
    );

  return (
    <Modal
      open={open}
      title={t('optOuts.modal.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={false} />}
    >
      <Form form={form} name="optOut" layout="vertical" onFinish={submit} disabled={saving} requiredMark={false}>
        <Form.Item
          name="number"
          label={t('optOuts.modal.number')}
          rules={[
            { required: true, whitespace: true, message: t('validation.required') },
            { min: 8, transform: (v: string) => v?.replace(/\D/g, ''), message: t('validation.tooShort') },
          ]}
        >
          <Input placeholder={t('optOuts.modal.placeholder')} inputMode="tel" maxLength={50} autoComplete="off" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
