import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Form, Input, Modal, Select, Skeleton, Space, Typography } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { queryKeys } from '../../api/query-keys';
import type { UserNameView, UserUpdateBody, UserView } from '../../api/types';
import { useLoadError } from '../../hooks/use-load-error';
import type { Company } from './settings.types';
import { useAction } from './use-action';

type Admin = UserNameView & Pick<UserView, 'email'>;

/** The company's admins with their e-mails (GET /users/list names them, GET /users/:id gives the e-mail). */
async function loadAdmins(companyId: number, signal: AbortSignal): Promise<Admin[]> {
  const { users } = await api.get<{ users: UserNameView[] }>('/users/list', { companyId }, { signal });
  const admins = users.filter((u) => u.profile === 'admin');
  return Promise.all(admins.map(async (u) => ({ ...u, email: (await api.get<UserView>(`/users/${u.id}`, undefined, { signal })).email })));
}

/**
 * Usuário: the company's admin login. A super user cannot browse another company's users on
 * /users, so this shows the admins' e-mails and lets the super user set a password to hand over.
 */
export function CompanyAdminModal({ company, onClose }: { company: Company | null; onClose(): void }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  // The admin picked in the list; the first one until the super user picks another.
  const [adminId, setAdminId] = useState<number | null>(null);
  const { busy, run } = useAction();
  const companyId = company?.id;

  const adminsQuery = useQuery({
    queryKey: queryKeys.companyAdmins(companyId ?? 0),
    queryFn: ({ signal }) => loadAdmins(companyId!, signal),
    enabled: companyId !== undefined,
  });
  useLoadError(adminsQuery.error, (err) => errorText(err, t));
  // A failed load shows the empty state under its toast.
  const admins = adminsQuery.data ?? (adminsQuery.isError ? [] : null);
  const admin = admins?.find((a) => a.id === adminId) ?? admins?.[0] ?? null;

  const setPassword = ({ password }: { password: string }) =>
    run('password', async () => {
      if (!admin) return;
      await api.put(`/users/${admin.id}`, { password } satisfies UserUpdateBody);
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
