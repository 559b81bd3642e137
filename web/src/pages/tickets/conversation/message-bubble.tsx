import { memo, useState } from 'react';
import { Button, Dropdown, Flex, Tooltip, Typography, theme, type MenuProps } from 'antd';
import { ApiOutlined, DeleteOutlined, DownOutlined, EditOutlined, ExclamationCircleFilled, RobotOutlined, RollbackOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../../../api/types';
import { ZonedTime } from '../../../components/zoned-time';
import { AckIcon } from './ack-icon';
import { mediaShowsBody, MessageMedia } from './message-media';
import { MessageText } from './message-text';
import { ErrorCode, errorCodeText } from '../../../api/errors';

export interface MessageActions {
  onReply?(message: ChatMessage): void;
  onEdit?(message: ChatMessage): void;
  onDelete?(message: ChatMessage): void;
  /** Brings a quoted message into view. */
  onShowQuoted?(id: number): void;
}

interface MessageBubbleProps extends MessageActions {
  message: ChatMessage;
  contactName: string;
}

/** What a quoted message shows in the reply box: its text, or what kind of media it is. */
function QuotedMessage({ quoted, contactName, onShow }: { quoted: ChatMessage; contactName: string; onShow?: (id: number) => void }) {
  const { t } = useTranslation('conversation');
  const { token } = theme.useToken();
  // The same accents as the composer's reply box: green for own messages, the primary colour for the contact's.
  const accent = quoted.fromMe ? token.colorSuccess : token.colorPrimary;
  const text = quoted.isDeleted ? t('messages.deleted') : quoted.body || (quoted.mediaType ? t(`messages.media.${quoted.mediaType}`) : '');
  return (
    <button
      type="button"
      onClick={() => onShow?.(quoted.id)}
      data-testid="quoted-message"
      style={{
        display: 'block',
        width: '100%',
        textAlign: 'start',
        cursor: onShow ? 'pointer' : 'default',
        border: 'none',
        borderInlineStart: `4px solid ${accent}`,
        borderRadius: token.borderRadiusSM,
        background: token.colorFillTertiary,
        color: 'inherit',
        font: 'inherit',
        padding: '4px 8px',
        marginBottom: 4,
      }}
    >
      <Typography.Text strong style={{ display: 'block', fontSize: 12, color: accent }}>
        {quoted.fromMe ? t('messages.you') : contactName}
      </Typography.Text>
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, fontSize: 13 }}>
        {text}
      </Typography.Paragraph>
    </button>
  );
}

/** One message: reply box, media, text, and its time, edit mark, delivery state and option menu. */
export const MessageBubble = memo(function MessageBubble({ message, contactName, onReply, onEdit, onDelete, onShowQuoted }: MessageBubbleProps) {
  const { t } = useTranslation('conversation');
  const { token } = theme.useToken();
  const [hover, setHover] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const own = message.fromMe;
  const failed = message.sendStatus === 'failed';
  const failure = errorCodeText(ErrorCode.ERR_SENDING_WAPP_MSG, t);

  const items: MenuProps['items'] = [];
  if (!message.isDeleted) {
    if (onReply) items.push({ key: 'reply', icon: <RollbackOutlined />, label: t('messages.reply'), onClick: () => onReply(message) });
    if (own && onEdit && !message.mediaType && message.body) items.push({ key: 'edit', icon: <EditOutlined />, label: t('messages.edit'), onClick: () => onEdit(message) });
    if (own && onDelete) items.push({ key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('messages.delete'), onClick: () => onDelete(message) });
  }
  const showBody = !message.isDeleted && message.body !== '' && !mediaShowsBody(message);

  return (
    <Flex justify={own ? 'flex-end' : 'flex-start'} id={`message-${message.id}`} data-testid="message" data-message-id={message.id} data-from-me={own}>
      <div
        onMouseEnter={() => setHover(true)}
        onMouseLeave={() => setHover(false)}
        style={{
          position: 'relative',
          maxWidth: 'min(75%, 560px)',
          minWidth: 96,
          padding: '6px 10px 4px',
          borderRadius: token.borderRadiusLG,
          background: own ? token.colorPrimaryBg : token.colorBgContainer,
          border: `1px solid ${own ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
          boxShadow: token.boxShadowTertiary,
          overflowWrap: 'anywhere',
        }}
      >
        {items.length > 0 ? (
          <Dropdown menu={{ items }} trigger={['click']} placement={own ? 'bottomRight' : 'bottomLeft'} onOpenChange={setMenuOpen}>
            <Button
              type="text"
              size="small"
              icon={<DownOutlined />}
              aria-label={t('messages.menu')}
              style={{
                position: 'absolute',
                insetInlineEnd: 2,
                top: 2,
                zIndex: 1,
                opacity: hover || menuOpen ? 1 : 0,
                background: own ? token.colorPrimaryBg : token.colorBgContainer,
              }}
              onFocus={() => setHover(true)}
              onBlur={() => setHover(false)}
            />
          </Dropdown>
        ) : null}
        {message.quotedMsg && !message.isDeleted ? <QuotedMessage quoted={message.quotedMsg} contactName={contactName} onShow={onShowQuoted} /> : null}
        {message.isDeleted ? (
          <Typography.Text type="secondary" italic data-testid="message-deleted">
            <StopOutlined /> {t('messages.deleted')}
          </Typography.Text>
        ) : (
          <MessageMedia message={message} />
        )}
        {showBody ? (
          <div style={{ whiteSpace: 'pre-wrap', marginTop: message.mediaType ? 4 : 0, paddingInlineEnd: items.length > 0 ? 18 : 0 }} data-testid="message-body">
            <MessageText text={message.body} />
          </div>
        ) : null}
        <Flex justify="flex-end" align="center" gap={4} style={{ fontSize: 11, color: token.colorTextTertiary, marginTop: 2 }}>
          {message.bot ? (
            // Written by a bot (an AI prompt), not by an agent.
            <span data-testid="message-bot" style={{ marginInlineEnd: 'auto', color: token.colorPrimaryText }}>
              <RobotOutlined aria-hidden /> {t('messages.bot')}
            </span>
          ) : message.apiToken ? (
            // Sent by another system with a company API token, not by an agent.
            <span data-testid="message-api-token" style={{ marginInlineEnd: 'auto', color: token.colorPrimaryText }}>
              <ApiOutlined aria-hidden /> {t('messages.viaToken', { name: message.apiToken.name })}
            </span>
          ) : null}
          {message.isEdited && !message.isDeleted ? <span data-testid="message-edited">{t('messages.edited')}</span> : null}
          <ZonedTime value={message.createdAt} data-testid="message-time" />
          {own && failed ? (
            <Tooltip title={message.sendError ? `${failure} (${message.sendError})` : failure}>
              <ExclamationCircleFilled style={{ color: token.colorError }} aria-label={failure} role="img" data-testid="message-failed" />
            </Tooltip>
          ) : null}
          {own && !failed ? <AckIcon ack={message.ack} /> : null}
        </Flex>
      </div>
    </Flex>
  );
});
