import { Button, Flex, theme, Tooltip, Typography } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../../../api/types';

/** The message being answered, above the input: who wrote it and the start of what they wrote. */
export function ReplyPreview({ message, contactName, onClose }: { message: ChatMessage; contactName: string; onClose(): void }) {
  const { t } = useTranslation('composer');
  const { token } = theme.useToken();
  const sender = message.fromMe ? t('reply.you') : contactName;
  const text = message.body || (message.mediaType ? t(`reply.media.${message.mediaType}`) : '');
  const accent = message.fromMe ? token.colorSuccess : token.colorPrimary;

  return (
    <Flex
      align="center"
      gap={8}
      data-testid="composer-reply"
      style={{
        padding: '6px 4px 6px 12px',
        marginBottom: 8,
        borderInlineStart: `4px solid ${accent}`,
        borderRadius: token.borderRadius,
        background: token.colorFillTertiary,
        minWidth: 0,
      }}
    >
      <Flex vertical style={{ flex: 1, minWidth: 0 }}>
        <Typography.Text strong ellipsis style={{ color: accent, fontSize: token.fontSizeSM }}>
          {t('reply.to', { name: sender })}
        </Typography.Text>
        <Typography.Text type="secondary" ellipsis>
          {text}
        </Typography.Text>
      </Flex>
      <Tooltip title={t('reply.close')}>
        <Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('reply.close')} onClick={onClose} />
      </Tooltip>
    </Flex>
  );
}
