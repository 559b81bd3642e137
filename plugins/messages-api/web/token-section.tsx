import { useState } from 'react';
import { Alert, App, Button, Form, Input, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, companyTimezone, errorText, queryKeys, useApiQuery, useAuth, useQueryClient, zonedText, type ConnectionSectionProps } from 'atende/web';
import type { ApiTokenView, NewApiToken } from '../messages-api.contract';

const TOKENS = '/messages-api/tokens';

/** The connection's messages API token (admins): made by the server and shown once, replaced or revoked. */
export default function TokenSection({ connectionId }: ConnectionSectionProps) {
  const { t } = useTranslation('messages-api');
  const { message } = App.useApp();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const tokens = useApiQuery<{ tokens: ApiTokenView[] }>(TOKENS);
  const [shown, setShown] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = tokens.data?.tokens.find((row) => row.connectionId === connectionId);
  const zone = companyTimezone(user);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: queryKeys.records(TOKENS) });
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };
  const generate = () => run(async () => setShown((await api.post<NewApiToken>(`${TOKENS}/${connectionId}`)).token));
  const revoke = () =>
    run(async () => {
      await api.delete(`${TOKENS}/${connectionId}`);
      setShown(null);
      void message.success(t('token.revoked'));
    });

  return (
    <Form.Item label={t('token.label')} htmlFor="messages-api-token">
      <Space direction="vertical" style={{ width: '100%' }}>
        {shown !== null ? (
          <>
            <Alert type="warning" showIcon message={t('token.showOnce')} />
            <Input
              id="messages-api-token"
              readOnly
              value={shown}
              onFocus={(e) => e.currentTarget.select()}
              styles={{ input: { fontFamily: 'monospace' } }}
              suffix={<Typography.Text copyable={{ text: shown, tooltips: [t('token.copy'), t('token.copied')] }} />}
            />
          </>
        ) : (
          <Typography.Text type="secondary">
            {current ? t('token.active', { created: zonedText(current.createdAt, zone), used: current.lastUsedAt ? zonedText(current.lastUsedAt, zone) : t('token.never') }) : t('token.none')}
          </Typography.Text>
        )}
        <Space>
          {current ? (
            <Popconfirm title={t('token.regenerate')} description={t('token.regenerateConfirm')} onConfirm={generate}>
              <Button loading={busy}>{t('token.regenerate')}</Button>
            </Popconfirm>
          ) : (
            <Button type="primary" loading={busy || tokens.isLoading} onClick={generate}>
              {t('token.generate')}
            </Button>
          )}
          {current && (
            <Popconfirm title={t('token.revoke')} description={t('token.revokeConfirm')} onConfirm={revoke}>
              <Button danger disabled={busy}>
                {t('token.revoke')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      </Space>
    </Form.Item>
  );
}
