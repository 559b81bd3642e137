import { useCallback, useState } from 'react';
import { Flex, Grid, Typography, theme, type TableColumnsType } from 'antd';
import { DownloadOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { actionsColumn, api, errorText, InfiniteTable, isAdmin, ListHeader, RowActions, useConfirmDelete, useGateContext, usePagedList } from 'atende/web';
import { CheckProgress } from './check-progress';
import { ContactListModal } from './contact-list-modal';
import { byName, contactListChannel, downloadSample, type ContactListRecord } from './contact-list-record';

/** /contact-lists: the company's contact lists, searched, paged and kept live (the check's progress too). */
export default function ContactListsPage() {
  const { t } = useTranslation('campaigns');
  const { token } = theme.useToken();
  const gates = useGateContext();
  const admin = gates ? isAdmin(gates) : false;
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const confirmDelete = useConfirmDelete();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  const term = search.trim().toLowerCase();
  const list = usePagedList<ContactListRecord>({
    path: '/contact-lists',
    listKey: 'records',
    search: term,
    channel: contactListChannel,
    entityKey: 'contactList',
    matches: (l) => !term || l.name.toLowerCase().includes(term),
    compare: byName,
  });

  const close = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);
  const remove = (l: ContactListRecord) =>
    confirmDelete({ name: l.name, content: t('lists.deleteMessage'), remove: () => api.delete(`/contact-lists/${l.id}`), errorText: (err) => errorText(err, t) });
  const contactsHref = (l: ContactListRecord) => `/contact-lists/${l.id}/contacts`;

  const columns: TableColumnsType<ContactListRecord> = [
    {
      title: t('lists.columns.name'),
      key: 'name',
      ellipsis: true,
      render: (_, l) => (
        <Flex vertical style={{ minWidth: 0 }}>
          <Typography.Link href={contactsHref(l)} ellipsis>
            {l.name}
          </Typography.Link>
          {compact ? (
            <>
              <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {t('lists.columns.contacts')}: {l.contactsCount}
              </Typography.Text>
              {l.contactsCount > 0 ? <CheckProgress check={l.check} compact /> : null}
            </>
          ) : null}
        </Flex>
      ),
    },
    ...(compact
      ? []
      : [
          { title: t('lists.columns.contacts'), dataIndex: 'contactsCount', width: 110, align: 'center' as const },
          { title: t('lists.columns.check'), key: 'check', width: 220, render: (_: unknown, l: ContactListRecord) => <CheckProgress check={l.check} /> },
        ]),
    actionsColumn(t('lists.columns.actions'), compact ? 150 : 180, (l) => (
      <RowActions
        size="small"
        actions={[
          ...(compact ? [] : [{ key: 'sample', label: t('lists.sample'), icon: <DownloadOutlined />, onClick: () => downloadSample(t('lists.sampleFile')) }]),
          { key: 'open', label: t('lists.open', { name: l.name }), icon: <TeamOutlined />, href: contactsHref(l) },
        ]}
        editLabel={t('lists.edit', { name: l.name })}
        onEdit={() => setEditing({ open: true, id: l.id })}
        {...(admin && { deleteLabel: t('lists.delete', { name: l.name }), onDelete: () => remove(l) })}
      />
    )),
  ];

  return (
    <Flex vertical gap={8}>
      <ListHeader
        title={t('lists.title')}
        search={{ value: search, onChange: setSearch, placeholder: t('lists.searchPlaceholder') }}
        add={{ label: t('lists.add'), shortLabel: t('lists.addShort'), onClick: () => setEditing({ open: true, id: null }) }}
      />
      <InfiniteTable<ContactListRecord>
        columns={columns}
        items={list.items}
        loading={list.loading}
        compact={compact}
        emptyText={t('lists.empty')}
        paging={{ hasMore: list.hasMore, loadMore: list.loadMore }}
        testId="contact-lists-table"
      />
      <ContactListModal open={editing.open} contactListId={editing.id} onClose={close} />
    </Flex>
  );
}
