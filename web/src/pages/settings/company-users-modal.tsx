import { useCallback, useState } from 'react';
import { Button, Flex, Modal, Tag, Typography } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { UserView } from '../../api/types';
import { InfiniteTable } from '../../components/infinite-table';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { usePagedList } from '../../hooks/use-paged-list';
import { UserModal } from '../users/user-modal';
import type { Company } from './settings.types';

/** The company's users (GET /users with its companyId), each opening the users' own modal. */
function CompanyUsers({ company }: { company: Company }) {
  const { t } = useTranslation('users');
  const [editing, setEditing] = useState<{ open: boolean; userId: number | null }>({ open: false, userId: null });
  const list = usePagedList<UserView>({ path: '/users', listKey: 'users', companyId: company.id });
  const close = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);

  const columns = [
    { title: t('columns.name'), dataIndex: 'name', ellipsis: true },
    { title: t('columns.email'), dataIndex: 'email', ellipsis: true, render: (email: string) => <Typography.Text copyable>{email}</Typography.Text> },
    { title: t('columns.profile'), dataIndex: 'profile', width: 130, render: (profile: UserView['profile']) => <Tag>{t(`profiles.${profile}`)}</Tag> },
    actionsColumn<UserView>(t('columns.actions'), 72, (user) => <RowActions editLabel={t('editUser', { name: user.name })} onEdit={() => setEditing({ open: true, userId: user.id })} />),
  ];

  return (
    <Flex vertical gap={12}>
      <Flex justify="end">
        <Button type="primary" icon={<UserAddOutlined />} onClick={() => setEditing({ open: true, userId: null })}>
          {t('add')}
        </Button>
      </Flex>
      <InfiniteTable<UserView> columns={columns} items={list.items} loading={list.loading} compact={false} scrollBody={false} paging={list} testId="company-users-table" />
      <UserModal open={editing.open} userId={editing.userId} companyId={company.id} onClose={close} onSaved={list.reload} />
    </Flex>
  );
}

/**
 * Usuário (Empresas tab, super users): the company's users, created and edited in the company's
 * name with the users' form (its fields and messages); a super user cannot reach them on /users.
 */
export function CompanyUsersModal({ company, onClose }: { company: Company | null; onClose(): void }) {
  const { t } = useTranslation('settings');
  return (
    <Modal
      open={company !== null}
      title={company ? t('companyUsers.title', { company: company.name }) : null}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common:actions.close')}</Button>}
      width={760}
      destroyOnHidden
    >
      {company ? <CompanyUsers company={company} /> : null}
    </Modal>
  );
}
