import { useCallback, useEffect, useState } from 'react';
import { Alert, App, Button, Flex, Grid, Tooltip, Typography, theme, type TableColumnsType } from 'antd';
import { ArrowLeftOutlined, CheckCircleFilled, ClockCircleOutlined, CloseCircleFilled, SyncOutlined, UploadOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import {
  actionsColumn,
  api,
  errorText,
  InfiniteTable,
  isAdmin,
  ListHeader,
  queryKeys,
  RowActions,
  useApiQuery,
  useAuth,
  useGateContext,
  useConfirmDelete,
  useQueryClient,
} from 'atende/web';
import { CheckProgress } from './check-progress';
import { ContactListItemModal } from './contact-list-item-modal';
import { contactListChannel, type ContactListEvent, type ContactListItemRecord, type ContactListRecord } from './contact-list-record';
import { ImportModal } from './import-modal';
import { useListItems } from './use-list-items';

/** The WhatsApp-valid icon (spec: green valid, grey invalid); a number not checked yet shows a clock. */
function ValidIcon({ item }: { item: ContactListItemRecord }) {
  const { t } = useTranslation('campaigns');
  const { token } = theme.useToken();
  const [label, icon] =
    item.isWhatsappValid === null
      ? [t('items.unchecked'), <ClockCircleOutlined style={{ color: token.colorTextQuaternary }} />]
      : item.isWhatsappValid
        ? [t('items.valid'), <CheckCircleFilled style={{ color: token.colorSuccess }} />]
        : [t('items.invalid'), <CloseCircleFilled style={{ color: token.colorTextDisabled }} />];
  return (
    <Tooltip title={label}>
      <span role="img" aria-label={label} data-valid={String(item.isWhatsappValid)} data-testid="whatsapp-valid" style={{ fontSize: 16 }}>
        {icon}
      </span>
    </Tooltip>
  );
}

/** /contact-lists/:id/contacts: a list's contacts, searched and paged, the import and the WhatsApp check's progress, live. */
export default function ContactListItemsPage() {
  const { t } = useTranslation('campaigns');
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const listId = Number(useParams<{ id: string }>().id);
  const gates = useGateContext();
  const admin = gates ? isAdmin(gates) : false;
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const confirmDelete = useConfirmDelete();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  const [importing, setImporting] = useState(false);

  const listPath = `/contact-lists/${listId}`;
  const list = useApiQuery<ContactListRecord>(listPath, { enabled: Number.isInteger(listId) && listId > 0 });
  const items = useListItems(listId, search);

  // The list's name and check progress follow its channel; a deleted list goes back to the lists.
  useEffect(() => {
    if (!user) return;
    return realtime.on(contactListChannel(user.companyId), (data) => {
      const event = data as ContactListEvent;
      if (event.action === 'delete' && event.contactListId === listId) navigate('/contact-lists');
      else if (event.action === 'update' && event.contactList.id === listId) queryClient.setQueryData(queryKeys.records(listPath), event.contactList);
    });
  }, [user, realtime, queryClient, listId, listPath, navigate]);

  const close = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);
  const closeImport = useCallback(() => setImporting(false), []);
  const remove = (item: ContactListItemRecord) =>
    confirmDelete({ name: item.name, content: t('items.deleteMessage'), remove: () => api.delete(`/contact-list-items/${item.id}`), errorText: (err) => errorText(err, t) });
  const startCheck = async () => {
    try {
      queryClient.setQueryData(queryKeys.records(listPath), await api.post<ContactListRecord>(`${listPath}/check`));
      void message.success(t('check.started'));
    } catch (err) {
      void message.error(errorText(err, t));
    }
  };

  const columns: TableColumnsType<ContactListItemRecord> = [
    { title: <WhatsAppOutlined aria-label={t('items.columns.valid')} />, key: 'valid', width: 48, align: 'center', render: (_, item) => <ValidIcon item={item} /> },
    {
      title: t('items.columns.name'),
      key: 'name',
      ellipsis: true,
      render: (_, item) =>
        compact ? (
          <Flex vertical style={{ minWidth: 0 }}>
            <Typography.Text ellipsis>{item.name}</Typography.Text>
            <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
              {item.number}
            </Typography.Text>
          </Flex>
        ) : (
          item.name
        ),
    },
    ...(compact
      ? []
      : [
          { title: t('items.columns.number'), dataIndex: 'number', width: 170, ellipsis: true },
          { title: t('items.columns.email'), dataIndex: 'email', ellipsis: true },
        ]),
    actionsColumn(t('items.columns.actions'), compact ? 88 : 110, (item) => (
      <RowActions
        editLabel={t('items.edit', { name: item.name })}
        onEdit={() => setEditing({ open: true, id: item.id })}
        {...(admin && { deleteLabel: t('items.delete', { name: item.name }), onDelete: () => remove(item) })}
      />
    )),
  ];

  if (list.isError) {
    return (
      <Flex vertical gap={12} align="flex-start">
        <Alert type="error" showIcon title={errorText(list.error, t) || t('items.notFound')} />
        <Button href="/contact-lists" icon={<ArrowLeftOutlined />}>
          {t('items.back')}
        </Button>
      </Flex>
    );
  }

  const check = list.data?.check;
  return (
    <Flex vertical gap={8}>
      <Flex align="center" gap={8} wrap>
        <Tooltip title={t('items.back')}>
          <Button href="/contact-lists" type="text" icon={<ArrowLeftOutlined />} aria-label={t('items.back')} />
        </Tooltip>
        {check ? (
          <Flex align="center" gap={8} style={{ flex: 1, minWidth: 200, maxWidth: 420 }}>
            <div style={{ flex: 1, minWidth: 0 }}>
              <CheckProgress check={check} />
            </div>
            {check.waiting ? (
              <Button size="small" icon={<SyncOutlined />} onClick={() => void startCheck()}>
                {t('check.start')}
              </Button>
            ) : null}
          </Flex>
        ) : null}
      </Flex>
      <ListHeader
        title={list.data?.name ?? ''}
        search={{ value: search, onChange: setSearch, placeholder: t('items.searchPlaceholder') }}
        extra={
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} disabled={!list.data}>
            {t('items.import')}
          </Button>
        }
        add={{ label: t('items.add'), shortLabel: t('items.addShort'), onClick: () => setEditing({ open: true, id: null }) }}
      />
      <InfiniteTable<ContactListItemRecord>
        columns={columns}
        items={items.items}
        loading={items.loading || list.isLoading}
        compact={compact}
        emptyText={t('items.empty')}
        paging={{ hasMore: items.hasMore, loadMore: items.loadMore }}
        testId="contact-list-items-table"
      />
      <ContactListItemModal open={editing.open} contactListId={listId} itemId={editing.id} onClose={close} />
      <ImportModal open={importing} contactListId={listId} listName={list.data?.name ?? ''} onClose={closeImport} />
    </Flex>
  );
}
