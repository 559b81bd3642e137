import { useCallback, useState } from 'react';
import { Flex, Grid, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { useAuth } from '../../auth/auth-provider';
import { InfiniteTable } from '../../components/infinite-table';
import { ListHeader } from '../../components/list-header';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { useConfirmDelete } from '../../components/use-confirm-delete';
import { usePagedList } from '../../hooks/use-paged-list';
import { registerTranslations } from '../../i18n';
import { TagModal, type TagRecord } from './tag-modal';
import { tagsTranslations } from './tags.i18n';
import { ColorChip } from '../../components/color-chip';

registerTranslations('tags', tagsTranslations);

/** The server orders tags by name, then id: live records take the same place. */
const byName = (a: TagRecord, b: TagRecord) => a.name.localeCompare(b.name) || a.id - b.id;

/** /tags (every user): the company's tags with their tickets count, searched and kept live; admins delete. */
export default function TagsPage() {
  const { t } = useTranslation('tags');
  const confirmDelete = useConfirmDelete();
  const { user } = useAuth();
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const mayDelete = Boolean(user && (user.profile === 'admin' || user.super));
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; tagId: number | null }>({ open: false, tagId: null });
  const term = search.trim().toLowerCase();
  const { items, loading, hasMore, loadMore } = usePagedList<TagRecord>({
    path: '/tags',
    listKey: 'tags',
    search: term,
    channel: 'tag',
    entityKey: 'tag',
    matches: (tag) => !term || tag.name.toLowerCase().includes(term),
    compare: byName,
  });

  const closeModal = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);

  const remove = (tag: TagRecord) =>
    confirmDelete({ name: tag.name, content: t('deleteMessage'), remove: () => api.delete(`/tags/${tag.id}`), errorText: (err) => errorText(err, t) });

  const columns: TableColumnsType<TagRecord> = [
    {
      title: t('columns.name'),
      dataIndex: 'name',
      render: (name: string, tag) => (
        // The tag's own colour is data, shown as the chip the tickets carry.
        <ColorChip color={tag.color} style={{ maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', verticalAlign: 'middle' }} data-testid="tag-chip">
          {name}
        </ColorChip>
      ),
    },
    { title: t('columns.tickets'), dataIndex: 'ticketsCount', align: 'center', width: compact ? 84 : 140 },
    actionsColumn(t('columns.actions'), compact ? 88 : 110, (tag) => (
      <RowActions
        editLabel={t('editTag', { name: tag.name })}
        onEdit={() => setEditing({ open: true, tagId: tag.id })}
        deleteLabel={t('deleteTag', { name: tag.name })}
        onDelete={mayDelete ? () => remove(tag) : undefined}
      />
    )),
  ];

  return (
    <Flex vertical gap={16}>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, placeholder: t('searchPlaceholder') }}
        add={{ label: t('add'), onClick: () => setEditing({ open: true, tagId: null }) }}
      />
      <InfiniteTable<TagRecord> columns={columns} items={items} loading={loading} compact={compact} paging={{ hasMore, loadMore }} testId="tags-table" />
      <TagModal open={editing.open} tagId={editing.tagId} onClose={closeModal} />
    </Flex>
  );
}
