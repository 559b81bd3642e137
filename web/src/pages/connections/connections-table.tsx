import { Flex, Grid, Tag, Typography, theme, type TableColumnsType } from 'antd';
import { CheckCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { InfiniteTable } from '../../components/infinite-table';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { useCompanyClock } from '../../layout/use-company-clock';
import type { Connection } from './connections.types';
import { SessionActions } from './session-actions';
import { StatusIcon } from './status-icon';

/** The spec's format for a connection's last update. */

interface ConnectionsTableProps {
  items: Connection[];
  loading: boolean;
  /** Session column (connections-page:actionButtons). */
  sessionActions: boolean;
  /** Actions column (connections-page:editOrDeleteConnection). */
  rowActions: boolean;
  onShowQr(connection: Connection): void;
  onEdit(connection: Connection): void;
  onDelete(connection: Connection): void;
}

/**
 * Name, status, session, last update, default, node (admins) and actions; on a phone the name cell carries the
 * status, the default flag and the last update, so the session buttons keep their room.
 */
export function ConnectionsTable({ items, loading, sessionActions, rowActions, onShowQr, onEdit, onDelete }: ConnectionsTableProps) {
  const { t } = useTranslation('connections');
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const compact = !screens.md;
  const clock = useCompanyClock();
  const formatUpdate = (value: string) => clock.format(value, 'DD/MM/YY HH:mm');

  const defaultFlag = (isDefault: boolean) =>
    isDefault ? <CheckCircleFilled role="img" aria-label={t('columns.default')} style={{ color: token.colorSuccess }} /> : null;

  // On a phone the last update goes to the second line and the provider tag stays out: the name keeps its room.
  const nameCell = (name: string, connection: Connection) => {
    const details = [connection.number, compact ? formatUpdate(connection.updatedAt) : ''].filter(Boolean);
    return (
      <Flex align="center" gap={10} style={{ minWidth: 0 }}>
        {compact ? <StatusIcon status={connection.status} /> : null}
        <Flex vertical style={{ minWidth: 0 }}>
          <Flex align="center" gap={6} style={{ minWidth: 0 }}>
            <Typography.Text strong ellipsis>
              {name}
            </Typography.Text>
            {compact ? defaultFlag(connection.isDefault) : null}
            {connection.provider === 'simulator' && !compact ? (
              <Tag bordered={false} style={{ marginInlineEnd: 0 }}>
                {t('simulator')}
              </Tag>
            ) : null}
          </Flex>
          {details.length > 0 ? (
            <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
              {details.join(' · ')}
            </Typography.Text>
          ) : null}
        </Flex>
      </Flex>
    );
  };

  const columns: TableColumnsType<Connection> = [
    { title: t('columns.name'), dataIndex: 'name', render: nameCell },
    ...(compact
      ? []
      : [{ title: t('columns.status'), dataIndex: 'status', align: 'center' as const, width: 90, render: (_: unknown, c: Connection) => <StatusIcon status={c.status} /> }]),
    ...(sessionActions
      ? [
          {
            title: t('columns.session'),
            key: 'session',
            align: 'center' as const,
            width: compact ? 132 : 270,
            render: (_: unknown, c: Connection) => <SessionActions connection={c} onShowQr={onShowQr} />,
          },
        ]
      : []),
    ...(compact
      ? []
      : [
          { title: t('columns.lastUpdate'), dataIndex: 'updatedAt', align: 'center' as const, width: 150, render: formatUpdate },
          { title: t('columns.default'), dataIndex: 'isDefault', align: 'center' as const, width: 90, render: defaultFlag },
        ]),
    // For those who run the sessions: which server runs each one (several nodes); — while none does.
    ...(compact || !sessionActions
      ? []
      : [
          {
            title: t('columns.node'),
            dataIndex: 'node',
            align: 'center' as const,
            width: 130,
            // A node id (host:pid:…) may be long: cut, whole in its tooltip.
            ellipsis: { showTitle: true },
            render: (node: string | null) => node ?? '—',
          },
        ]),
    ...(rowActions
      ? [
          actionsColumn<Connection>(t('columns.actions'), compact ? 68 : 100, (c) => (
            <RowActions
              size={compact ? 'small' : 'middle'}
              editLabel={t('editConnection', { name: c.name })}
              onEdit={() => onEdit(c)}
              deleteLabel={t('deleteConnection', { name: c.name })}
              onDelete={() => onDelete(c)}
            />
          )),
        ]
      : []),
  ];

  return (
    <InfiniteTable<Connection>
      columns={columns}
      items={items}
      loading={loading}
      compact={compact}
      emptyText={t('empty')}
      scrollBody={false}
      testId="connections-table"
    />
  );
}
