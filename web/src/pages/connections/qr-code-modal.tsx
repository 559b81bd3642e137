import { useEffect, useRef } from 'react';
import { Flex, Modal, QRCode, Spin, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Connection } from './connections.types';

const QR_SIZE = 256;
/** A QR code reads best dark on light, whatever the theme: the light theme's own colours. */
const LIGHT = theme.getDesignToken();

interface QrCodeModalProps {
  /** The connection as the live list has it now; undefined once it is deleted. */
  connection: Connection | undefined;
  onClose(): void;
}

/**
 * The QR code of a connection waiting to be paired. It follows the live session frames and closes
 * by itself when the QR code empties (the phone connected) or the connection disappears.
 */
export function QrCodeModal({ connection, onClose }: QrCodeModalProps) {
  const { t } = useTranslation('connections');
  const qrcode = connection?.qrcode ?? '';
  const shown = useRef(false);

  useEffect(() => {
    if (qrcode) shown.current = true;
    else if (shown.current || !connection) onClose();
  }, [qrcode, connection, onClose]);

  const steps = ['stepOne', 'stepTwo', 'stepThree', 'stepFour'] as const;
  return (
    <Modal open title={connection?.name ?? ''} onCancel={onClose} footer={null} width={720}>
      <Flex wrap gap={24} align="center" justify="center">
        <Flex vertical gap={8} style={{ flex: '1 1 260px', minWidth: 0 }}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('qr.stepsTitle')}
          </Typography.Title>
          {steps.map((step) => (
            <Typography.Text key={step}>{t(`qr.${step}`)}</Typography.Text>
          ))}
        </Flex>
        <Flex vertical align="center" gap={8} data-testid="qr-code">
          {qrcode ? (
            <QRCode value={qrcode} size={QR_SIZE} color={LIGHT.colorText} bgColor={LIGHT.colorBgContainer} aria-label={t('qr.title')} />
          ) : (
            <Flex align="center" justify="center" style={{ width: QR_SIZE, height: QR_SIZE }}>
              <Spin />
            </Flex>
          )}
          <Typography.Text type="secondary">{t('qr.waiting')}</Typography.Text>
        </Flex>
      </Flex>
    </Modal>
  );
}
