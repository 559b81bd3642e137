import { App, Button, Col, Divider, Flex, Form, Input, Modal, Row, Spin, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ModalFooter } from '../../components/modal-footer';
import { useLoadOnOpen } from '../../components/use-load-on-open';
import { useSubmitGuard } from '../../components/use-submit-guard';
import { registerTranslations } from '../../i18n';
import type { ContactCreateBody } from '../../api/types';
import { contactErrorText } from './contact-errors';
import { contactsTranslations } from './contacts.i18n';
import type { ContactDetail } from './contacts.types';

// The new ticket dialog opens this modal too: it brings its own strings.
registerTranslations('contacts', contactsTranslations);

interface FormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: { name: string; value: string }[];
}

export interface ContactModalProps {
  open: boolean;
  /** null adds a contact. */
  contactId: number | null;
  /** A new contact's fields filled in advance (what was typed in a search). */
  prefill?: Partial<Pick<FormValues, 'name' | 'number'>>;
  onClose(): void;
  /** Called with a contact just added, after the modal closes. */
  onCreated?(contact: ContactDetail): void;
}

const DEFAULTS: FormValues = { name: '', number: '', email: '', extraInfo: [] };
/** How people write numbers; the server keeps the digits. */
const FORMATTING = /[\s+().\-/]/g;

const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
const digits = (value: unknown) => (typeof value === 'string' ? value.replace(FORMATTING, '') : value);

/** Add or edit a contact: name, WhatsApp number, e-mail and extra name/value fields. */
export function ContactModal({ open, contactId, prefill, onClose, onCreated }: ContactModalProps) {
  const { t } = useTranslation('contacts');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const creating = contactId === null;

  const loading = useLoadOnOpen<ContactDetail>({
    open,
    path: contactId === null ? null : `/contacts/${contactId}`,
    onOpen: () => {
      form.resetFields();
      if (prefill) form.setFieldsValue(prefill);
    },
    onLoad: (contact) =>
      form.setFieldsValue({
        name: contact.name,
        number: contact.number,
        email: contact.email,
        extraInfo: contact.extraInfo.map(({ name, value }) => ({ name, value })),
      }),
    errorText: (err) => contactErrorText(err, t),
    onClose,
  });
  const { saving, guard } = useSubmitGuard((err) => contactErrorText(err, t));

  const submit = (values: FormValues) => {
    const body: ContactCreateBody = {
      name: values.name.trim(),
      number: values.number.trim(),
      email: (values.email ?? '').trim(),
      extraInfo: (values.extraInfo ?? []).map((f) => ({ name: f.name.trim(), value: f.value ?? '' })),
    };
    return guard(
      () => (creating ? api.post<ContactDetail>('/contacts', body) : api.put<ContactDetail>(`/contacts/${contactId}`, body)),
      (contact) => {
        void message.success(t('modal.saved'));
        onClose();
        if (creating) onCreated?.(contact);
      },
    );
  };

  const required = { required: true, whitespace: true, message: t('validation.required') };

  return (
    <Modal
      open={open}
      title={t(creating ? 'modal.addTitle' : 'modal.editTitle')}
      onCancel={onClose}
      forceRender
      width={600}
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} />}
    >
      <Spin spinning={loading}>
        <Form<FormValues> form={form} name="contact" layout="vertical" initialValues={DEFAULTS} onFinish={submit} disabled={saving} requiredMark={false}>
          <Typography.Text type="secondary">{t('modal.details')}</Typography.Text>
          <Row gutter={16} style={{ marginTop: 8 }}>
            <Col xs={24} sm={12}>
              <Form.Item
                name="name"
                label={t('modal.name')}
                rules={[
                  required,
                  { min: 2, transform: trim, message: t('validation.tooShort') },
                  { max: 50, transform: trim, message: t('validation.tooLong') },
                ]}
              >
                <Input autoFocus autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item
                name="number"
                label={t('modal.number')}
                tooltip={t('modal.numberHint')}
                rules={[
                  required,
                  { pattern: /^\d*$/, transform: digits, message: t('validation.digitsOnly') },
                  { min: 8, transform: digits, message: t('validation.tooShort') },
                  { max: 50, transform: digits, message: t('validation.tooLong') },
                ]}
              >
                <Input autoComplete="off" inputMode="tel" placeholder="5511987654321" />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="email" label={t('modal.email')} rules={[{ type: 'email', transform: trim, message: t('validation.invalidEmail') }]}>
                <Input autoComplete="off" inputMode="email" />
              </Form.Item>
            </Col>
          </Row>
          <Divider titlePlacement="start" plain style={{ marginTop: 8 }}>
            {t('modal.extraInfo')}
          </Divider>
          <Form.List name="extraInfo">
            {(fields, { add, remove }) => (
              <Flex vertical gap={8}>
                {fields.map((field) => (
                  <Flex key={field.key} gap={8} align="start">
                    <Form.Item
                      name={[field.name, 'name']}
                      rules={[required, { max: 100, message: t('validation.tooLong') }]}
                      style={{ flex: 1, minWidth: 0, marginBottom: 0 }}
                    >
                      <Input placeholder={t('modal.extraName')} aria-label={t('modal.extraName')} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'value']} style={{ flex: 1, minWidth: 0, marginBottom: 0 }}>
                      <Input placeholder={t('modal.extraValue')} aria-label={t('modal.extraValue')} />
                    </Form.Item>
                    <Tooltip title={t('modal.removeExtra')}>
                      <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('modal.removeExtra')} onClick={() => remove(field.name)} />
                    </Tooltip>
                  </Flex>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })} block>
                  {t('modal.addExtra')}
                </Button>
              </Flex>
            )}
          </Form.List>
        </Form>
      </Spin>
    </Modal>
  );
}
