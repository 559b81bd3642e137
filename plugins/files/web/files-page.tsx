import { useCallback, useState } from 'react';
import { Flex, Grid, Typography, theme, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { actionsColumn, api, errorText, InfiniteTable, ListHeader, RowActions, useConfirmDelete, usePagedList } from 'atende/web';
import { FileListModal } from './file-list-modal';
import { byName, fileListChannel, type FileListRecord } from './file-list-record';

/** /files (admin section): the company's file lists, searched and kept live, with their dialog. */
export default function FilesPage() {
  const { t } = useTranslation('files');
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const confirmDelete = useConfirmDelete();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  const term = search.trim().toLowerCase();
  const list = usePagedList<FileListRecord>({
    path: '/files',
    listKey: 'files',
    search: term,
    channel: fileListChannel,
    entityKey: 'fileList',
    matches: (f) => !term || [f.name, f.message].some((text) => text.toLowerCase().includes(term)),
    compare: byName,
  });

  const close = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);
  const remove = (f: FileListRecord) =>
    confirmDelete({
      name: f.name,
      content: t('deleteMessage'),
      remove: () => api.delete(`/files/${f.id}`),
      errorText: (err) => errorText(err, t),
    });

  const fileCount = (f: FileListRecord) => t('fileCount', { count: f.options.length });
  const columns: TableColumnsType<FileListRecord> = [
    {
      title: t('columns.name'),
      key: 'name',
      ellipsis: true,
      render: (_, f) =>
        compact ? (
          <Flex vertical style={{ minWidth: 0 }}>
            <Typography.Text ellipsis>{f.name}</Typography.Text>
            <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
              {fileCount(f)}
            </Typography.Text>
          </Flex>
        ) : (
          f.name
        ),
    },
    ...(compact
      ? []
      : [
          { title: t('columns.message'), dataIndex: 'message', ellipsis: { showTitle: true } },
          { title: t('columns.files'), key: 'files', width: 120, align: 'center' as const, render: (_: unknown, f: FileListRecord) => fileCount(f) },
        ]),
    actionsColumn(t('columns.actions'), compact ? 88 : 110, (f) => (
      <RowActions
        editLabel={t('editList', { name: f.name })}
        onEdit={() => setEditing({ open: true, id: f.id })}
        deleteLabel={t('deleteList', { name: f.name })}
        onDelete={() => remove(f)}
      />
    )),
  ];

  return (
    <Flex vertical gap={8}>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, placeholder: t('searchPlaceholder') }}
        add={{ label: t('add'), shortLabel: t('addShort'), onClick: () => setEditing({ open: true, id: null }) }}
      />
      <InfiniteTable<FileListRecord>
        columns={columns}
        items={list.items}
        loading={list.loading}
        compact={compact}
        emptyText={t('empty')}
        paging={{ hasMore: list.hasMore, loadMore: list.loadMore }}
        testId="files-table"
      />
      <FileListModal open={editing.open} fileListId={editing.id} onClose={close} />
    </Flex>
  );
}
