import { useCallback, useState } from 'react';
import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { useAuth } from '../../auth/auth-provider';
import { ListHeader } from '../../components/list-header';
import { useConfirmDelete } from '../../components/use-confirm-delete';
import { registerTranslations } from '../../i18n';
import { ConnectionModal } from './connection-modal';
import { connectionsTranslations } from './connections.i18n';
import { ConnectionsTable } from './connections-table';
import type { Connection } from './connections.types';
import { can } from './permissions';
import { QrCodeModal } from './qr-code-modal';
import { useConnections } from './use-connections';

registerTranslations('connections', connectionsTranslations);

/**
 * /connections: the company's WhatsApp connections, kept live. Every user reads them; admins also
 * run the sessions (QR code, try again, new QR, disconnect) and add, edit and delete connections.
 */
export default function ConnectionsPage() {
  const { t } = useTranslation('connections');
  const confirmDelete = useConfirmDelete();
  const { user } = useAuth();
  const { items, loading, upsert, drop } = useConnections();
  const [editing, setEditing] = useState<{ open: boolean; connectionId: number | null }>({ open: false, connectionId: null });
  const [qrFor, setQrFor] = useState<number | null>(null);

  const closeModal = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);
  const closeQr = useCallback(() => setQrFor(null), []);

  const remove = (connection: Connection) =>
    confirmDelete({
      name: connection.name,
      content: t('deleteMessage'),
      remove: async () => {
        await api.delete(`/whatsapp/${connection.id}`);
        drop(connection.id);
      },
      errorText: (err) => errorText(err, t),
      successText: t('deleted'),
    });

  return (
    <Flex vertical gap={16}>
      <ListHeader
        title={t('title')}
        add={can(user, 'connections-page:addConnection') ? { label: t('add'), onClick: () => setEditing({ open: true, connectionId: null }) } : undefined}
      />
      <ConnectionsTable
        items={items}
        loading={loading}
        sessionActions={can(user, 'connections-page:actionButtons')}
        rowActions={can(user, 'connections-page:editOrDeleteConnection')}
        onShowQr={(connection) => setQrFor(connection.id)}
        onEdit={(connection) => setEditing({ open: true, connectionId: connection.id })}
        onDelete={remove}
      />
      <ConnectionModal open={editing.open} connectionId={editing.connectionId} onClose={closeModal} onSaved={upsert} />
      {qrFor !== null ? <QrCodeModal connection={items.find((c) => c.id === qrFor)} onClose={closeQr} /> : null}
    </Flex>
  );
}
