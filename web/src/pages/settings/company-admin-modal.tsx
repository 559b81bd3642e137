import { useEffect, useState } from 'react';
import { App, Button, Empty, Form, Input, Modal, Select, Skeleton, Space, Typography } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import type { Profile } from '../../api/types';
import type { Company } from './settings.types';
import { useAction } from './use-action';

interface UserName {
  id: number;
  name: string;
  profile: Profile;
}

interface Admin extends UserName {
  email: string;
}

/**
 * Usuário: the company's admin login. A super user cannot browse another company's users on
 * /users, so this shows the admins' e-mails and lets the super user set a password to hand over.
 */
export function CompanyAdminModal({ company, onClose }: { company: Company | null; onClose(): void }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [admins, setAdmins] = useState<Admin[] | null>(null);
  const [adminId, setAdminId] = useState<number | null>(null);
  const { busy, run } = useAction();
  const companyId = company?.id;

  useEffect(() => {
    if (companyId === undefined) return;
    const controller = new AbortController();
    const { signal } = controller;
    setAdmins(null);
    api
      .get<{ users: UserName[] }>('/users/list', { companyId }, { signal })
      .then(({ users }) =>
        Promise.all(
          users
            .filter((u) => u.profile === 'admin')
            .map((u) => api.get<Admin>(`/users/${u.id}`, undefined, { signal }).then(({ email }) => ({ ...u, email }))),
        ),
      )
      .then((list) => {
        setAdmins(list);
        setAdminId(list[0]?.id ?? null);
      })
      .catch((err: unknown) => {
        if (signal.aborted) return;
        setAdmins([]);
        void message.error(errorText(err, t));
      });
    return () => controller.abort();
  }, [companyId, message, t]);

  const admin = admins?.find((a) => a.id === adminId) ?? null;

  const setPassword = ({ password }: { password: string }) =>
    run('password', async () => {
      if (!admin) return;
      await api.put(`/users/${admin.id}`, { password });
      void message.success(t('companyUsers.passwordSet'));
    });

  return (
    <Modal
      open={company !== null}
      title={company ? t('companyUsers.title', { company: company.name }) : null}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common:actions.close')}</Button>}
      destroyOnHidden
    >
      {admins === null ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : admin === null ? (
        <Empty description={t('companyUsers.noAdmin')} />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('companyUsers.intro')}</Typography.Paragraph>
          {admins.length > 1 ? (
            <Select
              style={{ width: '100%' }}
              aria-label={t('companyUsers.admin')}
              value={admin.id}
              onChange={setAdminId}
              options={admins.map((a) => ({ value: a.id, label: `${a.name} (${a.email})` }))}
            />
          ) : null}
          <Typography.Text>
            {t('companies.login')}:{' '}
            <Typography.Text copyable strong data-testid="company-admin-email">
              {admin.email}
            </Typography.Text>
          </Typography.Text>
          <Form<{ password: string }> key={admin.id} layout="vertical" onFinish={setPassword} disabled={busy !== null} style={{ marginTop: 8 }}>
            <Form.Item
              name="password"
              label={t('companyUsers.newPassword')}
              rules={[
                { required: true, message: t('form.required') },
                { min: 5, max: 50, message: t('companyUsers.passwordLength') },
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" icon={<KeyOutlined />} loading={busy === 'password'}>
              {t('companyUsers.setPassword')}
            </Button>
          </Form>
        </Space>
      )}
    </Modal>
  );
}
