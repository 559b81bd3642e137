import type { ReactNode } from 'react';
import { Avatar, Button, Dropdown, Flex, Space, Tag, Tooltip, Typography, theme, type MenuProps } from 'antd';
import {
  CheckCircleOutlined,
  CheckOutlined,
  DeleteOutlined,
  MoreOutlined,
  RedoOutlined,
  SwapOutlined,
  UndoOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '../../../api/types';
import type { TicketAction, TicketActions } from './use-ticket-actions';
import { ColorChip } from '../../../components/color-chip';

type HeaderAction = TicketAction | 'transfer';

export type HeaderDensity = 'full' | 'icons' | 'menu';

interface ActionDefinition {
  key: HeaderAction;
  icon: ReactNode;
  primary?: boolean;
  danger?: boolean;
}

const ICONS: Record<HeaderAction, ReactNode> = {
  accept: <CheckOutlined />,
  return: <UndoOutlined />,
  resolve: <CheckCircleOutlined />,
  reopen: <RedoOutlined />,
  transfer: <SwapOutlined />,
  delete: <DeleteOutlined />,
};

/** The actions of each status (spec §4); delete only for admins. The first is the main one. */
function actionsFor(status: Ticket['status'], admin: boolean): ActionDefinition[] {
  const keys: HeaderAction[] = { pending: ['accept', 'transfer'], open: ['resolve', 'return', 'transfer'], closed: ['reopen'] }[status] as HeaderAction[];
  if (admin) keys.push('delete');
  return keys.map((key, i) => ({ key, icon: ICONS[key], primary: i === 0, danger: key === 'delete' }));
}

export interface TicketHeaderProps {
  ticket: Ticket;
  readOnly: boolean;
  admin: boolean;
  /**
   * How much room the actions get: 'full' buttons with text; 'icons' keeps the main action's text
   * and shows the others as icons; 'menu' keeps only the main action and puts the rest in a menu.
   */
  density: HeaderDensity;
  actions: TicketActions;
  onTransfer(): void;
  onOpenContact(): void;
}

/** Contact, ticket number, who attends it in which queue, and the actions of its status. */
export function TicketHeader({ ticket, readOnly, admin, density, actions, onTransfer, onOpenContact }: TicketHeaderProps) {
  const { t } = useTranslation('conversation');
  const { token } = theme.useToken();
  const definitions = readOnly ? [] : actionsFor(ticket.status, admin);

  const trigger = (key: HeaderAction) => {
    if (key === 'transfer') onTransfer();
    else if (key === 'delete') actions.remove();
    else actions.run(key);
  };

  const button = (action: ActionDefinition) => {
    const label = t(`actions.${action.key}`);
    // Delete is always an icon; in 'icons' density every action but the main one is.
    const iconOnly = action.danger || (density === 'icons' && !action.primary);
    const element = (
      <Button
        key={action.key}
        type={action.primary ? 'primary' : 'default'}
        danger={action.danger}
        icon={action.icon}
        loading={actions.busy === action.key}
        disabled={actions.busy !== null && actions.busy !== action.key}
        onClick={() => trigger(action.key)}
        aria-label={iconOnly ? label : undefined}
      >
        {iconOnly ? null : label}
      </Button>
    );
    return iconOnly ? (
      <Tooltip key={action.key} title={label}>
        {element}
      </Tooltip>
    ) : (
      element
    );
  };

  const compact = density === 'menu';
  const inMenu = compact ? definitions.slice(1) : [];
  const asButtons = compact ? definitions.slice(0, 1) : definitions;
  const menu: MenuProps['items'] = inMenu.map((action) => ({
    key: action.key,
    icon: action.icon,
    danger: action.danger,
    label: t(`actions.${action.key}`),
    disabled: actions.busy !== null,
    onClick: () => trigger(action.key),
  }));

  return (
    <Flex
      align="center"
      justify="space-between"
      gap={8}
      data-testid="conversation-header"
      data-status={ticket.status}
      style={{ padding: '8px 12px', borderBottom: `1px solid ${token.colorBorderSecondary}`, background: token.colorBgContainer, minWidth: 0 }}
    >
      <button
        type="button"
        onClick={onOpenContact}
        aria-label={t('header.openContact')}
        style={{ all: 'unset', cursor: 'pointer', display: 'flex', alignItems: 'center', gap: 10, minWidth: 0, flex: 1 }}
      >
        <Avatar src={ticket.contact.profilePicUrl || undefined} icon={<UserOutlined />} size={40} style={{ flexShrink: 0 }} />
        <Flex vertical style={{ minWidth: 0 }}>
          <Typography.Text strong ellipsis data-testid="conversation-contact">
            {ticket.contact.name}{' '}
            <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 12 }}>
              #{ticket.id}
            </Typography.Text>
          </Typography.Text>
          <Space size={4} style={{ minWidth: 0, overflow: 'hidden', whiteSpace: 'nowrap' }}>
            {ticket.queue ? (
              <ColorChip color={ticket.queue.color} style={{ marginInlineEnd: 0 }}>
                {ticket.queue.name}
              </ColorChip>
            ) : (
              <Tag style={{ marginInlineEnd: 0 }}>{t('header.noQueue')}</Tag>
            )}
            <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }} data-testid="conversation-assignee">
              {ticket.user ? t('header.assignedTo', { name: ticket.user.name }) : t(`status.${ticket.status}`)}
            </Typography.Text>
          </Space>
        </Flex>
      </button>
      {definitions.length > 0 ? (
        <Space size={6} wrap={false} data-testid="conversation-actions">
          {asButtons.map(button)}
          {menu.length > 0 ? (
            <Dropdown menu={{ items: menu }} trigger={['click']} placement="bottomRight">
              <Button icon={<MoreOutlined />} aria-label={t('header.more')} />
            </Dropdown>
          ) : null}
        </Space>
      ) : null}
    </Flex>
  );
}
