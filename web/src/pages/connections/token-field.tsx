import { useState } from 'react';
import { App, Button, Form, Input, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';

interface TokenFieldProps {
  connectionId: number;
  token: string;
  onChange(token: string): void;
}

/** The connection's API token (admins): read-only, copied with one click, regenerated on request. */
export function TokenField({ connectionId, token, onChange }: TokenFieldProps) {
  const { t } = useTranslation('connections');
  const { message } = App.useApp();
  const [regenerating, setRegenerating] = useState(false);

  const regenerate = async () => {
    setRegenerating(true);
    try {
      const answer = await api.post<{ token: string }>(`/whatsapp/${connectionId}/token`);
      onChange(answer.token);
      void message.success(t('common:toasts.success'));
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setRegenerating(false);
    }
  };

  return (
    <Form.Item label={t('modal.token')} htmlFor="connection-token" extra={t('modal.tokenHelp')}>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          id="connection-token"
          readOnly
          value={token}
          styles={{ input: { fontFamily: 'monospace' } }}
          suffix={<Typography.Text copyable={{ text: token, tooltips: [t('modal.copyToken'), t('modal.tokenCopied')] }} />}
        />
        <Popconfirm
          title={t('modal.regenerate')}
          description={t('modal.regenerateConfirm')}
          okText={t('common:actions.confirm')}
          cancelText={t('common:actions.cancel')}
          onConfirm={regenerate}
        >
          <Tooltip title={t('modal.regenerate')}>
            <Button icon={<ReloadOutlined />} aria-label={t('modal.regenerate')} loading={regenerating} />
          </Tooltip>
        </Popconfirm>
      </Space.Compact>
    </Form.Item>
  );
}
