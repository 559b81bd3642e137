import { useState } from 'react';
import { App, Button, Flex, Popconfirm, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, companyTimezone, errorText, ListHeader, queryKeys, useApiQuery, useAuth, useQueryClient, zonedText } from 'atende/web';
import type { CompanyApiTokenView, NewCompanyApiToken } from '../api-tokens.contract';
import { CreateTokenModal } from './create-token-modal';
import { ShownTokenModal } from './shown-token-modal';

export const TOKENS = '/api-tokens';

/** /api-tokens (admins, flag useExternalApi): the company's API tokens, made, shown once and revoked. */
export default function ApiTokensPage() {
  const { t } = useTranslation('api-tokens');
  const { message } = App.useApp();
  const { user } = useAuth();
  const zone = companyTimezone(user);
  const queryClient = useQueryClient();
  const tokens = useApiQuery<{ tokens: CompanyApiTokenView[] }>(TOKENS);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<NewCompanyApiToken | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.records(TOKENS) });
  const revoke = async (token: CompanyApiTokenView) => {
    try {
      await api.delete(`${TOKENS}/${token.id}`);
      void message.success(t('revoked', { name: token.name }));
    } catch (err) {
      void message.error(errorText(err, t));
    }
    await refresh();
  };

  const columns: TableColumnsType<CompanyApiTokenView> = [
    {
      title: t('columns.name'),
      key: 'name',
      render: (_, token) => (
        <Flex vertical>
          <Typography.Text strong>{token.name}</Typography.Text>
          <Typography.Text type="secondary" code>
            {token.hint}…
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('columns.scopes'),
      key: 'scopes',
      render: (_, token) => (
        <Space size={[4, 4]} wrap>
          {token.scopes.map((scope) => {
            const [resource, access] = scope.split(':');
            return (
              <Tag key={scope} color={access === 'write' ? 'orange' : 'blue'}>
                {t(`resources.${resource}`)}: {t(`access.${access}`)}
              </Tag>
            );
          })}
        </Space>
      ),
    },
    { title: t('columns.created'), key: 'created', width: 160, render: (_, token) => zonedText(token.createdAt, zone) },
    { title: t('columns.lastUsed'), key: 'lastUsed', width: 160, render: (_, token) => (token.lastUsedAt ? zonedText(token.lastUsedAt, zone) : t('never')) },
    {
      title: t('columns.actions'),
      key: 'actions',
      width: 110,
      align: 'center',
      render: (_, token) => (
        <Popconfirm title={t('revokeTitle', { name: token.name })} description={t('revokeConfirm')} okText={t('revoke')} okButtonProps={{ danger: true }} onConfirm={() => revoke(token)}>
          <Button danger size="small" aria-label={t('revokeNamed', { name: token.name })}>
            {t('revoke')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Flex vertical gap={8}>
      <ListHeader title={t('title')} add={{ label: t('add'), onClick: () => setCreating(true) }} />
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('intro')}{' '}
        <Typography.Link href="/api/docs" target="_blank">
          {t('docsLink')}
        </Typography.Link>
      </Typography.Paragraph>
      <Table<CompanyApiTokenView>
        rowKey="id"
        columns={columns}
        dataSource={tokens.data?.tokens ?? []}
        loading={tokens.isLoading}
        pagination={false}
        scroll={{ x: 720 }}
        locale={{ emptyText: t('empty') }}
        data-testid="api-tokens-table"
      />
      <CreateTokenModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(created) => {
          setCreating(false);
          setShown(created);
          void refresh();
        }}
      />
      <ShownTokenModal token={shown} onClose={() => setShown(null)} />
    </Flex>
  );
}
