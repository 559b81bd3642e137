import { useState } from 'react';
import { App, Button, Empty, Flex, Popconfirm, Skeleton, Tag, Tooltip, Typography, theme } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, SubnodeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { useApiQuery } from '../../hooks/use-api-query';
import { OptionFormModal, type OptionTarget } from './option-form-modal';
import type { QueueOptionNode } from './queues.types';

interface NodeActions {
  addChild(parent: QueueOptionNode): void;
  edit(option: QueueOptionNode): void;
  remove(option: QueueOptionNode): Promise<void>;
}

/** One option and, indented under it, its branch. */
function OptionBranch({ node, depth, actions }: { node: QueueOptionNode; depth: number; actions: NodeActions }) {
  const { t } = useTranslation('queues');
  const { token } = theme.useToken();
  return (
    <li style={{ listStyle: 'none' }} data-testid={`option-${node.id}`}>
      <Flex
        align="center"
        gap={8}
        style={{ paddingBlock: 6, paddingInline: 8, borderRadius: token.borderRadius, background: depth === 0 ? token.colorFillQuaternary : undefined }}
      >
        <Tag color="blue" style={{ marginInlineEnd: 0, minWidth: 32, textAlign: 'center' }}>
          {node.option}
        </Tag>
        <Flex vertical style={{ minWidth: 0, flex: 1 }}>
          <Typography.Text strong ellipsis>
            {node.title}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
            {node.message || t('options.noMessage')}
          </Typography.Text>
        </Flex>
        <Flex gap={2} style={{ flexShrink: 0 }}>
          <Tooltip title={t('options.addChild', { title: node.title })}>
            <Button type="text" size="small" icon={<SubnodeOutlined />} aria-label={t('options.addChild', { title: node.title })} onClick={() => actions.addChild(node)} />
          </Tooltip>
          <Tooltip title={t('common:actions.edit')}>
            <Button type="text" size="small" icon={<EditOutlined />} aria-label={t('options.edit', { title: node.title })} onClick={() => actions.edit(node)} />
          </Tooltip>
          <Popconfirm
            title={t('options.deleteConfirm', { title: node.title })}
            okText={t('common:actions.delete')}
            cancelText={t('common:actions.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => actions.remove(node)}
          >
            <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('options.delete', { title: node.title })} />
          </Popconfirm>
        </Flex>
      </Flex>
      {node.children.length > 0 ? (
        <ul style={{ margin: 0, paddingInlineStart: 16, marginInlineStart: 20, borderInlineStart: `2px solid ${token.colorBorderSecondary}` }}>
          {node.children.map((child) => (
            <OptionBranch key={child.id} node={child} depth={depth + 1} actions={actions} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/**
 * Opções: the queue's chatbot menu as a tree. Every change is saved at once and the tree reloaded
 * from the server, which orders siblings by their key (so editing a key reorders them).
 */
export function QueueOptionsEditor({ queueId }: { queueId: number }) {
  const { t } = useTranslation('queues');
  const { message } = App.useApp();
  const [target, setTarget] = useState<OptionTarget | null>(null);
  const options = useApiQuery<QueueOptionNode[]>('/queue-options', { query: { queueId, parentId: -1 }, failureText: (err) => errorText(err, t) });
  const tree = options.isError ? [] : (options.data ?? null);
  const { refetch } = options;
  const reload = () => void refetch();

  const actions: NodeActions = {
    addChild: (parent) => setTarget({ mode: 'create', queueId, parent }),
    edit: (option) => setTarget({ mode: 'edit', option }),
    remove: async (option) => {
      try {
        await api.delete(`/queue-options/${option.id}`);
      } catch (err) {
        void message.error(errorText(err, t));
      }
      reload();
    },
  };

  return (
    <Flex vertical gap={12} data-testid="queue-options">
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text type="secondary" style={{ flex: '1 1 260px' }}>
          {t('options.intro')}
        </Typography.Text>
        <Button icon={<PlusOutlined />} onClick={() => setTarget({ mode: 'create', queueId, parent: null })}>
          {t('options.addRoot')}
        </Button>
      </Flex>
      {tree === null ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : tree.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('options.empty')} />
      ) : (
        <ul style={{ margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 6 }}>
          {tree.map((node) => (
            <OptionBranch key={node.id} node={node} depth={0} actions={actions} />
          ))}
        </ul>
      )}
      <OptionFormModal target={target} onClose={() => setTarget(null)} onSaved={reload} />
    </Flex>
  );
}
