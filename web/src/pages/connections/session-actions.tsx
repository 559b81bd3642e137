import { useState } from 'react';
import { App, Button, Flex } from 'antd';
import { LoadingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import type { Connection } from './connections.types';

type SessionCall = 'start' | 'newQr' | 'disconnect';

const CALLS: Record<SessionCall, 'post' | 'put' | 'delete'> = { start: 'post', newQr: 'put', disconnect: 'delete' };

interface SessionActionsProps {
  connection: Connection;
  onShowQr(connection: Connection): void;
}

/**
 * The session column (admins): the action each status offers. qrcode shows the QR;
 * DISCONNECTED tries again or asks for a new QR; CONNECTED, PAIRING and TIMEOUT disconnect (after a
 * confirmation); OPENING waits. The row itself changes when the session's live frame arrives.
 */
export function SessionActions({ connection, onShowQr }: SessionActionsProps) {
  const { t } = useTranslation('connections');
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState<SessionCall | null>(null);

  const call = async (name: SessionCall) => {
    setBusy(name);
    try {
      await api[CALLS[name]](`/whatsappsession/${connection.id}`);
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setBusy(null);
    }
  };

  const confirmDisconnect = () =>
    modal.confirm({
      title: t('disconnectTitle', { name: connection.name }),
      content: t('disconnectMessage'),
      okText: t('buttons.disconnect'),
      cancelText: t('common:actions.cancel'),
      okButtonProps: { danger: true },
      onOk: () => call('disconnect'),
    });

  const button = (name: SessionCall, label: string, onClick: () => void, primary = false) => (
    <Button
      size="small"
      type={primary ? 'primary' : 'default'}
      loading={busy === name}
      disabled={busy !== null && busy !== name}
      onClick={onClick}
    >
      {label}
    </Button>
  );

  switch (connection.status) {
    case 'qrcode':
      return (
        <Button size="small" type="primary" onClick={() => onShowQr(connection)}>
          {t('buttons.qrcode')}
        </Button>
      );
    case 'DISCONNECTED':
      return (
        <Flex wrap gap={8} justify="center">
          {button('start', t('buttons.tryAgain'), () => void call('start'), true)}
          {button('newQr', t('buttons.newQr'), () => void call('newQr'))}
        </Flex>
      );
    case 'OPENING':
      return (
        <Button size="small" disabled icon={<LoadingOutlined />}>
          {t('buttons.connecting')}
        </Button>
      );
    default:
      return button('disconnect', t('buttons.disconnect'), confirmDisconnect);
  }
}
