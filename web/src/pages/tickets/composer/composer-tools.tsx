import type { ReactNode } from 'react';
import { Button, Dropdown, Flex, Switch, theme, Tooltip } from 'antd';
import { FunctionOutlined, MoreOutlined, PaperClipOutlined, SignatureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EmojiButton } from '../../quick-messages/emoji-button';
import { variableItems, VariablesMenu } from './variables-menu';

interface ComposerToolsProps {
  /** A narrow pane: the variables and the sign option fold into one menu. */
  compact: boolean;
  sign: boolean;
  onToggleSign(): void;
  /** Puts an emoji or a variable at the cursor. */
  onInsert(text: string): void;
  onAttach(): void;
  /** The plugins' composer actions, after attach (in the "more" menu when compact). */
  actions: { key: string; label: string; icon: ReactNode }[];
  onAction(key: string): void;
}

/** The buttons left of the input: emoji, attach, the plugins' actions, variables and the sign option. */
export function ComposerTools({ compact, sign, onToggleSign, onInsert, onAttach, actions, onAction }: ComposerToolsProps) {
  const { t } = useTranslation('composer');
  const { token } = theme.useToken();

  const signButton = (
    <Tooltip title={sign ? t('signOn') : t('signOff')}>
      <Button
        type="text"
        icon={<SignatureOutlined />}
        aria-label={t('sign')}
        aria-pressed={sign}
        onClick={onToggleSign}
        style={sign ? { color: token.colorPrimary, background: token.colorPrimaryBg } : { color: token.colorTextTertiary }}
      />
    </Tooltip>
  );

  const moreMenu = (
    <Dropdown
      trigger={['click']}
      placement="topLeft"
      menu={{
        items: [
          ...actions.map((action) => ({ key: action.key, label: action.label, icon: action.icon, onClick: () => onAction(action.key) })),
          { key: 'variables', label: t('variables.title'), icon: <FunctionOutlined />, children: variableItems(t, onInsert) },
          {
            key: 'sign',
            icon: <SignatureOutlined />,
            label: (
              <Flex justify="space-between" align="center" gap={16}>
                {t('sign')}
                <Switch size="small" checked={sign} aria-label={t('sign')} />
              </Flex>
            ),
            onClick: onToggleSign,
          },
        ],
      }}
    >
      <Tooltip title={t('more')}>
        <Button type="text" icon={<MoreOutlined />} aria-label={t('more')} />
      </Tooltip>
    </Dropdown>
  );

  return (
    <Flex gap={2} style={{ flex: 'none' }}>
      <EmojiButton onPick={onInsert} />
      <Tooltip title={t('attachments.attach')}>
        <Button type="text" icon={<PaperClipOutlined />} aria-label={t('attachments.attach')} onClick={onAttach} />
      </Tooltip>
      {compact
        ? null
        : actions.map((action) => (
            <Tooltip key={action.key} title={action.label}>
              <Button type="text" icon={action.icon} aria-label={action.label} onClick={() => onAction(action.key)} />
            </Tooltip>
          ))}
      {compact ? (
        moreMenu
      ) : (
        <>
          <VariablesMenu onInsert={onInsert} />
          {signButton}
        </>
      )}
    </Flex>
  );
}
