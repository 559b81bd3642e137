import { Alert, Button, Descriptions, Flex, Modal, QRCode, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText, formatDate, useApiQuery } from 'atende/web';
import { brl, type InvoicePix } from './invoice-record';

interface PixModalProps {
  invoiceId: number | null;
  onClose(): void;
}

/** An open invoice's Pix: its QR code and copy-and-paste code, for the amount the server set. */
export function PixModal({ invoiceId, onClose }: PixModalProps) {
  const { t } = useTranslation('billing');
  const pix = useApiQuery<InvoicePix>(`/invoices/${invoiceId ?? 0}/pix`, { enabled: invoiceId !== null });

  return (
    <Modal open={invoiceId !== null} title={t('pix.title')} onCancel={onClose} footer={<Button onClick={onClose}>{t('pix.close')}</Button>} destroyOnHidden width={420}>
      {pix.isPending ? (
        <Flex justify="center" style={{ padding: 32 }}>
          <Spin />
        </Flex>
      ) : pix.isError ? (
        <Alert type="error" showIcon message={errorText(pix.error, t)} data-testid="pix-error" />
      ) : (
        <Flex vertical align="center" gap={16} data-testid="pix">
          {pix.data.encodedImage ? (
            <img src={`data:image/png;base64,${pix.data.encodedImage}`} alt={t('pix.title')} width={220} height={220} style={{ imageRendering: 'pixelated' }} />
          ) : (
            <QRCode value={pix.data.payload} size={220} bordered={false} />
          )}
          <Descriptions column={1} size="small" style={{ width: '100%' }}>
            <Descriptions.Item label={t('columns.value')}>{brl.format(pix.data.value)}</Descriptions.Item>
            <Descriptions.Item label={t('columns.dueDate')}>{formatDate(pix.data.dueDate)}</Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary">{t('pix.copyHint')}</Typography.Text>
          <Typography.Paragraph
            copyable={{ text: pix.data.payload, tooltips: [t('pix.copy'), t('pix.copied')] }}
            code
            style={{ wordBreak: 'break-all', marginBottom: 0, width: '100%' }}
            data-testid="pix-payload"
          >
            {pix.data.payload}
          </Typography.Paragraph>
        </Flex>
      )}
    </Modal>
  );
}
