import type { ReactNode } from 'react';
import { Tooltip, Typography, theme } from 'antd';
import { DisconnectOutlined, LoadingOutlined, QrcodeOutlined, SignalFilled, WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ConnectionStatus } from './connections.types';

/** The status of a connection as an icon; its tooltip names the status and says what to do. */
export function StatusIcon({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation('connections');
  const { token } = theme.useToken();
  const icons: Record<ConnectionStatus, ReactNode> = {
    CONNECTED: <SignalFilled style={{ color: token.colorSuccess }} />,
    DISCONNECTED: <DisconnectOutlined style={{ color: token.colorError }} />,
    qrcode: <QrcodeOutlined style={{ color: token.colorPrimary }} />,
    OPENING: <LoadingOutlined style={{ color: token.colorTextSecondary }} />,
    PAIRING: <WarningOutlined style={{ color: token.colorWarning }} />,
    TIMEOUT: <WarningOutlined style={{ color: token.colorError }} />,
  };
  return (
    <Tooltip
      title={
        <>
          <Typography.Text strong style={{ color: 'inherit', display: 'block' }}>
            {t(`statuses.${status}`)}
          </Typography.Text>
          {t(`hints.${status}`)}
        </>
      }
    >
      <span role="img" aria-label={t(`statuses.${status}`)} data-status={status} data-testid="connection-status" style={{ fontSize: 18 }}>
        {icons[status]}
      </span>
    </Tooltip>
  );
}
