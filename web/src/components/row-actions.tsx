import type { ReactNode } from 'react';
import { Button, Flex, Tooltip } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** A row's action besides edit and delete: a button, or a link when it has `href` (opens in a new tab too). */
export interface RowAction {
  key: string;
  /** Its tooltip and accessible name. */
  label: string;
  icon: ReactNode;
  onClick?: () => void;
  href?: string;
  danger?: boolean;
}

export interface RowActionsProps {
  /** Actions shown before edit, in this order. */
  actions?: RowAction[];
  /** The edit button's accessible name, e.g. "Editar Ana"; without onEdit there is no edit button. */
  editLabel?: string;
  onEdit?: () => void;
  /** The delete button's accessible name; without onDelete there is no delete button. */
  deleteLabel?: string;
  onDelete?: () => void;
  size?: 'small' | 'middle';
}

/** A row's icon buttons, each with its tooltip: its own actions, then edit and delete (each when given). */
export function RowActions({ actions = [], editLabel, onEdit, deleteLabel, onDelete, size }: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Flex justify="center" gap={4}>
      {actions.map((action) => (
        <Tooltip key={action.key} title={action.label}>
          <Button type="text" size={size} danger={action.danger} icon={action.icon} aria-label={action.label} href={action.href} onClick={action.onClick} />
        </Tooltip>
      ))}
      {onEdit ? (
        <Tooltip title={t('common:actions.edit')}>
          <Button type="text" size={size} icon={<EditOutlined />} aria-label={editLabel} onClick={onEdit} />
        </Tooltip>
      ) : null}
      {onDelete ? (
        <Tooltip title={t('common:actions.delete')}>
          <Button type="text" size={size} danger icon={<DeleteOutlined />} aria-label={deleteLabel} onClick={onDelete} />
        </Tooltip>
      ) : null}
    </Flex>
  );
}

/** The centred actions column, last in a list's table. */
export function actionsColumn<T>(title: string, width: number, render: (record: T) => ReactNode): ColumnType<T> {
  return { title, key: 'actions', align: 'center', width, render: (_: unknown, record: T) => render(record) };
}
