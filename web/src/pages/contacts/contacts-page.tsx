import { useCallback, useEffect, useState } from 'react';
import { App, Avatar, Button, Flex, Grid, Tooltip, Typography, theme, type TableColumnsType } from 'antd';
import { DownloadOutlined, ScheduleOutlined, UploadOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { api, getToken, refreshSession } from '../../api/client';
import { useAuth } from '../../auth/auth-provider';
import { InfiniteTable } from '../../components/infinite-table';
import { ListHeader } from '../../components/list-header';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { useConfirmDelete } from '../../components/use-confirm-delete';
import { usePagedList } from '../../hooks/use-paged-list';
import { registerTranslations } from '../../i18n';
import { contactErrorText } from './contact-errors';
import { ContactModal } from './contact-modal';
import { contactsTranslations } from './contacts.i18n';
import type { ContactRecord } from './contacts.types';
import { ImportModal } from './import-modal';
import { canDeleteContact } from './permissions';
import { NewTicketModal } from '../tickets/new-ticket-modal';

registerTranslations('contacts', contactsTranslations);

/** The server orders contacts by name, then id: live records take the same place. */
const byName = (a: ContactRecord, b: ContactRecord) => a.name.localeCompare(b.name) || a.id - b.id;

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return ((words[0]?.[0] ?? '') + (words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '')).toUpperCase();
}

/** contatos.csv comes with the token, so it is fetched as a blob and handed to the browser to save. */
async function downloadExport(): Promise<void> {
  const get = () => fetch('/api/contacts/export', { headers: { Authorization: `Bearer ${getToken() ?? ''}` }, credentials: 'same-origin' });
  let res = await get();
  if ((res.status === 401 || res.status === 403) && (await refreshSession())) res = await get();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'contatos.csv';
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** /contacts: the company's contacts, searched, scrolled page by page, kept live; add, edit, import, export. */
export default function ContactsPage() {
  const { t } = useTranslation('contacts');
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const { user: me, plan, realtime } = useAuth();
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; contactId: number | null }>({ open: false, contactId: null });
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [starting, setStarting] = useState<ContactRecord | null>(null);
  const term = search.trim().toLowerCase();
  const digits = term.replace(/[\s+().\-/]/g, '');
  const confirmDelete = useConfirmDelete();
  const { items, loading, hasMore, loadMore, reload } = usePagedList<ContactRecord>({
    path: '/contacts',
    listKey: 'contacts',
    search: term,
    channel: 'contact',
    entityKey: 'contact',
    matches: (c) =>
      !term || c.name.toLowerCase().includes(term) || c.email.toLowerCase().includes(term) || (digits !== '' && c.number.includes(digits)),
    compare: byName,
  });
  const mayDelete = canDeleteContact(me);
  // The schedules page opens its add dialog for the contact (spec: /schedules?contactId=).
  const maySchedule = plan?.useSchedules === true;

  // A file import changes many contacts at once: its frame says so, and the list loads again.
  useEffect(() => {
    if (!me) return;
    return realtime.on(`company-${me.companyId}-contact`, (data) => {
      if ((data as { action?: string }).action === 'import') reload();
    });
  }, [me, realtime, reload]);

  const closeModal = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadExport();
    } catch {
      void message.error(t('exportFailed'));
    } finally {
      setExporting(false);
    }
  };

  const remove = (contact: ContactRecord) =>
    confirmDelete({
      name: contact.name,
      content: t('deleteMessage'),
      remove: () => api.delete(`/contacts/${contact.id}`),
      errorText: (err) => contactErrorText(err, t),
    });

  const columns: TableColumnsType<ContactRecord> = [
    {
      key: 'avatar',
      onHeaderCell: () => ({ 'aria-label': t('columns.avatar') }),
      width: compact ? 52 : 64,
      render: (_, contact) => (
        <Avatar src={contact.profilePicUrl || undefined} alt="" style={{ backgroundColor: token.colorPrimary, color: token.colorTextLightSolid }}>
          {initials(contact.name)}
        </Avatar>
      ),
    },
    {
      title: t('columns.name'),
      dataIndex: 'name',
      ellipsis: true,
      render: (name: string, contact) =>
        compact ? (
          <Flex vertical style={{ minWidth: 0 }}>
            <Typography.Text ellipsis>{name}</Typography.Text>
            <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
              {contact.number}
            </Typography.Text>
          </Flex>
        ) : (
          name
        ),
    },
    ...(compact
      ? []
      : [
          { title: t('columns.number'), dataIndex: 'number', width: 190, ellipsis: true },
          { title: t('columns.email'), dataIndex: 'email', ellipsis: true },
        ]),
    actionsColumn(t('columns.actions'), (compact ? 120 : 136) + (maySchedule ? 32 : 0), (contact) => (
      <Flex justify="center" gap={4}>
        <Tooltip title={t('tickets:newTicketModal.start')}>
          <Button
            type="text"
            icon={<WhatsAppOutlined />}
            aria-label={t('tickets:newTicketModal.startFor', { name: contact.name })}
            onClick={() => setStarting(contact)}
          />
        </Tooltip>
        {maySchedule ? (
          <Tooltip title={t('schedule')}>
            <Link href={`/schedules?contactId=${contact.id}`} asChild>
              <Button type="text" icon={<ScheduleOutlined />} aria-label={t('scheduleFor', { name: contact.name })} />
            </Link>
          </Tooltip>
        ) : null}
        <RowActions
          editLabel={t('editContact', { name: contact.name })}
          onEdit={() => setEditing({ open: true, contactId: contact.id })}
          deleteLabel={t('deleteContact', { name: contact.name })}
          onDelete={mayDelete ? () => remove(contact) : undefined}
        />
      </Flex>
    )),
  ];

  return (
    <Flex vertical gap={16}>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, placeholder: t('searchPlaceholder') }}
        add={{ label: t('add'), shortLabel: t('addShort'), onClick: () => setEditing({ open: true, contactId: null }) }}
        extra={
          <>
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} style={compact ? { flex: 1 } : undefined}>
              {t('import')}
            </Button>
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()} style={compact ? { flex: 1 } : undefined}>
              {t('export')}
            </Button>
          </>
        }
      />
      <InfiniteTable<ContactRecord> columns={columns} items={items} loading={loading} compact={compact} paging={{ hasMore, loadMore }} testId="contacts-table" />
      <ContactModal open={editing.open} contactId={editing.contactId} onClose={closeModal} />
      <ImportModal open={importing} onClose={() => setImporting(false)} />
      <NewTicketModal open={starting !== null} contact={starting} onClose={() => setStarting(null)} />
    </Flex>
  );
}
