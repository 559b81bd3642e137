import { useCallback, useState } from 'react';
import { App, Flex, Grid, Tag, Tooltip, Typography, theme, type TableColumnsType } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { actionsColumn, api, ColorChip, errorText, formatDate, InfiniteTable, ListHeader, RowActions, useConfirmDelete } from 'atende/web';
import type { PromptDeleted } from '../prompt.contract';
import { PromptModal } from './prompt-modal';
import type { PromptRecord } from './prompt-record';
import { usePrompts } from './use-prompts';

/** /prompts (admins, plan flag useOpenAi): the company's AI prompts with their queue, max tokens and use, kept live. */
export default function PromptsPage() {
  const { t } = useTranslation('prompts');
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const confirmDelete = useConfirmDelete();
  const prompts = usePrompts();
  const [editing, setEditing] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  const close = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);

  const remove = (p: PromptRecord) =>
    confirmDelete({
      name: p.name,
      content: t('deleteMessage'),
      remove: async () => {
        await api.delete<PromptDeleted>(`/prompt/${p.id}`);
        prompts.drop(p.id);
        void message.info(t('deleted'));
      },
      errorText: (err) => errorText(err, t),
    });

  const failure = (p: PromptRecord) =>
    p.lastError ? (
      <Tooltip title={t('lastError', { when: p.lastErrorAt ? formatDate(p.lastErrorAt) : '', error: p.lastError })}>
        <Tag icon={<WarningOutlined />} color="warning" data-testid="prompt-error" tabIndex={0}>
          {t('failed')}
        </Tag>
      </Tooltip>
    ) : null;

  const columns: TableColumnsType<PromptRecord> = [
    {
      title: t('columns.name'),
      key: 'name',
      ellipsis: true,
      render: (_, p) => (
        <Flex vertical style={{ minWidth: 0 }}>
          <Flex align="center" gap={6} style={{ minWidth: 0 }}>
            <Typography.Text ellipsis>{p.name}</Typography.Text>
            {failure(p)}
          </Flex>
          <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
            {compact ? [p.queue?.name, t('maxTokensShort', { count: p.maxTokens })].filter(Boolean).join(' · ') : p.model}
          </Typography.Text>
        </Flex>
      ),
    },
    ...(compact
      ? []
      : [
          {
            title: t('columns.queue'),
            key: 'queue',
            width: 200,
            ellipsis: true,
            render: (_: unknown, p: PromptRecord) => (p.queue ? <ColorChip color={p.queue.color}>{p.queue.name}</ColorChip> : <Typography.Text type="secondary">—</Typography.Text>),
          },
          { title: t('columns.maxTokens'), dataIndex: 'maxTokens', width: 130, align: 'center' as const },
          {
            title: t('columns.tokens'),
            key: 'tokens',
            width: 140,
            align: 'center' as const,
            render: (_: unknown, p: PromptRecord) => (
              <Tooltip title={t('tokensDetail', { prompt: p.promptTokens, completion: p.completionTokens })}>
                <span tabIndex={0} data-testid="prompt-tokens">
                  {p.totalTokens.toLocaleString()}
                </span>
              </Tooltip>
            ),
          },
        ]),
    actionsColumn(t('columns.actions'), compact ? 88 : 110, (p) => (
      <RowActions
        editLabel={t('edit', { name: p.name })}
        onEdit={() => setEditing({ open: true, id: p.id })}
        deleteLabel={t('delete', { name: p.name })}
        onDelete={() => remove(p)}
      />
    )),
  ];

  return (
    <Flex vertical gap={8}>
      <ListHeader title={t('title')} add={{ label: t('add'), shortLabel: t('addShort'), onClick: () => setEditing({ open: true, id: null }) }} />
      <InfiniteTable<PromptRecord>
        columns={columns}
        items={prompts.items}
        loading={prompts.loading}
        compact={compact}
        emptyText={t('empty')}
        testId="prompts-table"
      />
      <PromptModal open={editing.open} promptId={editing.id} onClose={close} onSaved={prompts.upsert} />
    </Flex>
  );
}
