import { useCallback, useState } from 'react';
import { Flex, Grid, Tag, Typography, theme, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import type { Profile, UserView } from '../../api/types';
import { useAuth } from '../../auth/auth-provider';
import { InfiniteTable } from '../../components/infinite-table';
import { ListHeader } from '../../components/list-header';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { useConfirmDelete } from '../../components/use-confirm-delete';
import { usePagedList } from '../../hooks/use-paged-list';
import { UserModal } from './user-modal';

const PROFILE_COLORS: Record<Profile, string | undefined> = { admin: 'blue', supervisor: 'purple', user: undefined };

/** The server orders users by name, then id: live records take the same place. */
const byName = (a: UserView, b: UserView) => a.name.localeCompare(b.name) || a.id - b.id;

/** /users (admins): the company's users, searched, scrolled page by page, kept live. */
export default function UsersPage() {
  const { t } = useTranslation('users');
  const { token } = theme.useToken();
  const confirmDelete = useConfirmDelete();
  const { user: me, updateUser } = useAuth();
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; userId: number | null }>({ open: false, userId: null });
  const term = search.trim().toLowerCase();
  const { items, loading, hasMore, loadMore } = usePagedList<UserView>({
    path: '/users',
    listKey: 'users',
    search: term,
    channel: 'user',
    entityKey: 'user',
    matches: (u) => !term || u.name.toLowerCase().includes(term) || u.email.toLowerCase().includes(term),
    compare: byName,
  });

  const closeModal = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);
  // The list follows the live frames; the top bar follows an admin who edits their own user.
  const saved = (user: UserView) => {
    if (me && user.id === me.id) updateUser({ ...me, ...user });
  };

  const remove = (user: UserView) =>
    confirmDelete({
      name: user.name,
      content: t('deleteMessage'),
      remove: () => api.delete(`/users/${user.id}`),
      errorText: (err) => errorText(err, t),
    });

  const profileTag = (profile: Profile) => <Tag color={PROFILE_COLORS[profile]}>{t(`profiles.${profile}`)}</Tag>;

  const columns: TableColumnsType<UserView> = [
    ...(compact ? [] : [{ title: t('columns.id'), dataIndex: 'id', width: 72 }]),
    {
      title: t('columns.name'),
      dataIndex: 'name',
      ellipsis: true,
      render: (name: string, user) =>
        compact ? (
          <Flex vertical style={{ minWidth: 0 }}>
            <Typography.Text ellipsis>{name}</Typography.Text>
            <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
              {user.email}
            </Typography.Text>
          </Flex>
        ) : (
          name
        ),
    },
    ...(compact ? [] : [{ title: t('columns.email'), dataIndex: 'email', ellipsis: true }]),
    { title: t('columns.profile'), dataIndex: 'profile', width: compact ? 124 : 150, render: profileTag },
    actionsColumn(t('columns.actions'), compact ? 88 : 100, (user) => (
      <RowActions
        editLabel={t('editUser', { name: user.name })}
        onEdit={() => setEditing({ open: true, userId: user.id })}
        deleteLabel={t('deleteUser', { name: user.name })}
        onDelete={() => remove(user)}
      />
    )),
  ];

  return (
    <Flex vertical gap={16}>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, placeholder: t('searchPlaceholder') }}
        add={{ label: t('add'), onClick: () => setEditing({ open: true, userId: null }) }}
      />
      <InfiniteTable<UserView> columns={columns} items={items} loading={loading} compact={compact} paging={{ hasMore, loadMore }} testId="users-table" />
      <UserModal open={editing.open} userId={editing.userId} onClose={closeModal} onSaved={saved} />
    </Flex>
  );
}
