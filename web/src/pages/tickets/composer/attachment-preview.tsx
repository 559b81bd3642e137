import { useEffect, useState } from 'react';
import { Button, Flex, Input, theme, Tooltip, Typography } from 'antd';
import { CloseOutlined, FileOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

const TILE = 72;

/** What the server accepts as an attachment (core/modules/media/media-upload.ts). */
export const ATTACHMENT_ACCEPT = '.jpg,.jpeg,.png,.gif,.webp,.mp3,.ogg,.opus,.m4a,.aac,.wav,.amr,.mp4,.3gp,.mov,.webm,.pdf,.txt,.csv,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.zip';
const EXTENSIONS = new Set(ATTACHMENT_ACCEPT.split(','));
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Why the server would refuse a file, checked before it is uploaded; null when it may go. */
export function refusal(file: File): 'notAllowed' | 'tooLarge' | null {
  const extension = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.')).toLowerCase() : '';
  if (!EXTENSIONS.has(extension)) return 'notAllowed';
  return file.size > MAX_FILE_BYTES ? 'tooLarge' : null;
}

/** Object URLs of the image files, revoked when the files change or the panel closes. */
function useThumbnails(files: File[]): (string | null)[] {
  const [urls, setUrls] = useState<(string | null)[]>([]);
  useEffect(() => {
    const made = files.map((file) => (file.type.startsWith('image/') ? URL.createObjectURL(file) : null));
    setUrls(made);
    return () => made.forEach((url) => url && URL.revokeObjectURL(url));
  }, [files]);
  return urls;
}

interface AttachmentPreviewProps {
  files: File[];
  caption: string;
  sending: boolean;
  onCaption(caption: string): void;
  onRemove(index: number): void;
  onAdd(): void;
  onCancel(): void;
  onSend(): void;
}

/** The files about to be sent: thumbnails or names, a caption for the first, cancel and send. */
export function AttachmentPreview({ files, caption, sending, onCaption, onRemove, onAdd, onCancel, onSend }: AttachmentPreviewProps) {
  const { t } = useTranslation('composer');
  const { token } = theme.useToken();
  const thumbnails = useThumbnails(files);
  const tile = {
    position: 'relative' as const,
    width: TILE,
    height: TILE,
    flex: 'none',
    borderRadius: token.borderRadius,
    border: `1px solid ${token.colorBorderSecondary}`,
    background: token.colorFillQuaternary,
    overflow: 'hidden',
  };

  return (
    <Flex vertical gap={8} style={{ flex: 1, minWidth: 0 }} data-testid="composer-attachments">
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
        {t('attachments.title', { count: files.length })}
      </Typography.Text>
      <Flex gap={8} style={{ overflowX: 'auto', paddingBottom: 2 }}>
        {files.map((file, index) => (
          <div key={`${file.name}-${file.size}-${file.lastModified}-${index}`} style={tile} title={file.name}>
            {thumbnails[index] ? (
              <img src={thumbnails[index]} alt={file.name} style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} />
            ) : (
              <Flex vertical align="center" justify="center" gap={4} style={{ height: '100%', padding: 4 }}>
                <FileOutlined style={{ fontSize: 22, color: token.colorTextSecondary }} />
                <Typography.Text ellipsis style={{ fontSize: token.fontSizeSM, maxWidth: '100%' }}>
                  {file.name}
                </Typography.Text>
              </Flex>
            )}
            <Button
              size="small"
              shape="circle"
              icon={<CloseOutlined />}
              aria-label={t('attachments.remove', { name: file.name })}
              onClick={() => onRemove(index)}
              style={{ position: 'absolute', top: 2, insetInlineEnd: 2, width: 20, minWidth: 20, height: 20 }}
            />
          </div>
        ))}
        <Tooltip title={t('attachments.addMore')}>
          <Button icon={<PlusOutlined />} aria-label={t('attachments.addMore')} onClick={onAdd} style={{ width: TILE, height: TILE, flex: 'none' }} type="dashed" />
        </Tooltip>
      </Flex>
      <Flex gap={8} align="center">
        <Input
          autoFocus
          value={caption}
          placeholder={t('attachments.caption')}
          aria-label={t('attachments.caption')}
          maxLength={4096}
          onChange={(event) => onCaption(event.target.value)}
          onPressEnter={onSend}
          onKeyDown={(event) => event.key === 'Escape' && onCancel()}
          style={{ flex: 1, minWidth: 0 }}
        />
        <Button onClick={onCancel} disabled={sending}>
          {t('cancel')}
        </Button>
        <Tooltip title={t('send')}>
          <Button type="primary" shape="circle" icon={<SendOutlined />} aria-label={t('send')} loading={sending} onClick={onSend} />
        </Tooltip>
      </Flex>
    </Flex>
  );
}
