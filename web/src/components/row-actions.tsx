import type { ReactNode } from 'react';
import { Button, Flex, Tooltip } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export interface RowActionsProps {
  /** The edit button's accessible name, e.g. "Editar Ana". */
  editLabel: string;
  onEdit(): void;
  /** The delete button's accessible name; without onDelete there is no delete button. */
  deleteLabel?: string;
  onDelete?: () => void;
  size?: 'small' | 'middle';
}

/** A row's edit and delete icon buttons, each with its tooltip. */
export function RowActions({ editLabel, onEdit, deleteLabel, onDelete, size }: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Flex justify="center" gap={4}>
      <Tooltip title={t('common:actions.edit')}>
        <Button type="text" size={size} icon={<EditOutlined />} aria-label={editLabel} onClick={onEdit} />
      </Tooltip>
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
