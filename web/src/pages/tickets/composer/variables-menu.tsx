import { Button, Dropdown, Flex, Tooltip, Typography, type MenuProps } from 'antd';
import { FunctionOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { VARIABLES, type Variable } from './compose-text';

type MenuItems = NonNullable<MenuProps['items']>;

/** One entry per variable: its name in the agent's language and the placeholder it inserts. */
export function variableItems(t: TFunction, onInsert: (placeholder: string) => void): MenuItems {
  return VARIABLES.map((variable: Variable) => ({
    key: `variable-${variable}`,
    label: (
      <Flex justify="space-between" gap={16}>
        <span>{t(`variables.${variable}`)}</span>
        <Typography.Text type="secondary" code>{`{{${variable}}}`}</Typography.Text>
      </Flex>
    ),
    onClick: () => onInsert(`{{${variable}}}`),
  }));
}

/** The button listing the variables; the chosen one is inserted at the cursor. */
export function VariablesMenu({ onInsert }: { onInsert(placeholder: string): void }) {
  const { t } = useTranslation('composer');
  return (
    <Dropdown trigger={['click']} placement="topLeft" menu={{ items: variableItems(t, onInsert) }}>
      <Tooltip title={t('variables.title')}>
        <Button type="text" icon={<FunctionOutlined />} aria-label={t('variables.title')} />
      </Tooltip>
    </Dropdown>
  );
}
