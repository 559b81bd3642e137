import { useEffect, useState } from 'react';
import { App, Checkbox, Form, Input, Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError, errorText, ModalFooter } from 'atende/web';
import type { ApiTokenScope, NewCompanyApiToken } from '../api-tokens.contract';

const RESOURCES = ['tickets', 'messages', 'contacts', 'tags', 'queues'] as const;
const ACCESS = ['read', 'write'] as const;

interface Props {
  open: boolean;
  onClose(): void;
  onCreated(token: NewCompanyApiToken): void;
}

/** A new token: its name and, per resource, read and write checkboxes (write includes read). */
export function CreateTokenModal({ open, onClose, onCreated }: Props) {
  const { t } = useTranslation('api-tokens');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const [scopes, setScopes] = useState<ApiTokenScope[]>([]);
  const [scopesError, setScopesError] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setScopes([]);
    setScopesError(false);
  }, [open, form]);

  const toggle = (resource: string, access: string, on: boolean) => {
    const scope = `${resource}:${access}` as ApiTokenScope;
    const read = `${resource}:read` as ApiTokenScope;
    setScopesError(false);
    setScopes((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      // Write includes read: checking it checks read, and read stays while write is on.
      if (access === 'write' && on) next.add(read);
      if (access === 'read' && !on) next.delete(`${resource}:write` as ApiTokenScope);
      return [...next];
    });
  };

  const save = async () => {
    // A field's error is already shown by the form: nothing more to do with the rejection.
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    const { name } = values;
    if (scopes.length === 0) {
      setScopesError(true);
      return;
    }
    setSaving(true);
    try {
      onCreated(await api.post<NewCompanyApiToken>('/api-tokens', { name, scopes }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) form.setFields([{ name: 'name', errors: [errorText(err, t)] }]);
      else void message.error(errorText(err, t));
    } finally {
      setSaving(false);
    }
  };

  const rows = RESOURCES.map((resource) => ({ resource }));
  return (
    <Modal
      open={open}
      title={t('create.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={<ModalFooter onCancel={onClose} onSave={() => void save()} saving={saving} loading={false} saveLabel={t('create.save')} />}
    >
      <Form form={form} layout="vertical" onFinish={() => void save()}>
        <Form.Item name="name" label={t('create.name')} rules={[{ required: true, whitespace: true, message: t('create.nameRequired') }, { max: 100, message: t('create.nameTooLong') }]}>
          <Input placeholder={t('create.namePlaceholder')} maxLength={100} autoFocus />
        </Form.Item>
        <Form.Item label={t('create.scopes')} help={scopesError ? t('create.scopesRequired') : t('create.scopesHelp')} validateStatus={scopesError ? 'error' : undefined} required>
          <Table
            size="small"
            rowKey="resource"
            pagination={false}
            dataSource={rows}
            columns={[
              { title: t('create.resource'), key: 'resource', render: (_, row) => <Typography.Text>{t(`resources.${row.resource}`)}</Typography.Text> },
              ...ACCESS.map((access) => ({
                title: t(`access.${access}`),
                key: access,
                width: 90,
                align: 'center' as const,
                render: (_: unknown, row: { resource: string }) => (
                  <Checkbox
                    aria-label={`${t(`resources.${row.resource}`)}: ${t(`access.${access}`)}`}
                    checked={scopes.includes(`${row.resource}:${access}` as ApiTokenScope)}
                    onChange={(e) => toggle(row.resource, access, e.target.checked)}
                  />
                ),
              })),
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
