import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { NewCompanyApiToken } from '../api-tokens.contract';

/** The token just made, shown this once with a copy button; closing it forgets it. */
export function ShownTokenModal({ token, onClose }: { token: NewCompanyApiToken | null; onClose(): void }) {
  const { t } = useTranslation('api-tokens');
  return (
    <Modal
      open={token !== null}
      title={t('shown.title', { name: token?.name ?? '' })}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('shown.done')}
        </Button>
      }
    >
      {token && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon message={t('shown.once')} />
          <Input
            readOnly
            aria-label={t('shown.label')}
            data-testid="new-api-token"
            value={token.token}
            onFocus={(e) => e.currentTarget.select()}
            styles={{ input: { fontFamily: 'monospace' } }}
            suffix={<Typography.Text copyable={{ text: token.token, tooltips: [t('shown.copy'), t('shown.copied')] }} />}
          />
          <Typography.Text type="secondary">{t('shown.usage')}</Typography.Text>
          <Typography.Text code copyable={{ text: `curl -H "Authorization: Bearer ${token.token}" ${window.location.origin}/api/tickets` }}>
            {`curl -H "Authorization: Bearer ${token.hint}…" ${window.location.origin}/api/tickets`}
          </Typography.Text>
        </Space>
      )}
    </Modal>
  );
}
