import { Button, Flex, Typography, Upload, theme } from 'antd';
import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';

/** What the server accepts (core/modules/media/media-upload.ts). */
export const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;
export const UPLOAD_ACCEPT =
  '.jpg,.jpeg,.png,.gif,.webp,.mp3,.ogg,.opus,.m4a,.aac,.wav,.amr,.mp4,.3gp,.mov,.webm,.pdf,.txt,.csv,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.zip';

export interface AttachmentFieldProps {
  /** The file shown (chosen or stored); null shows only the attach button. */
  fileName: string | null;
  /** A file chosen, already checked against maxBytes. */
  onPick(file: File): void;
  /** A file over maxBytes was chosen. */
  onTooLarge(): void;
  onRemove(): void;
  labels: { attach: string; replace: string; remove: string };
  /** Read-only: the name without buttons. */
  disabled?: boolean;
  testId?: string;
  /** The file picker's choice (`.png,.jpg`); every type an attachment may have by default. */
  accept?: string;
  /** The largest file (bytes) before onTooLarge; MAX_UPLOAD_BYTES by default. */
  maxBytes?: number;
}

/** One attachment of a form (uploaded by the form once its record is saved): its name, remove and attach/replace buttons. */
export function AttachmentField({ fileName, onPick, onTooLarge, onRemove, labels, disabled, testId, accept = UPLOAD_ACCEPT, maxBytes = MAX_UPLOAD_BYTES }: AttachmentFieldProps) {
  const { token } = theme.useToken();
  const choose = (file: File) => {
    if (file.size > maxBytes) onTooLarge();
    else onPick(file);
    return false;
  };
  return (
    <Flex vertical gap={8}>
      {fileName ? (
        <Flex
          align="center"
          gap={8}
          style={{ padding: '4px 4px 4px 12px', border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, minWidth: 0, minHeight: 34 }}
          data-testid={testId}
        >
          <PaperClipOutlined style={{ color: token.colorTextSecondary }} />
          <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>
            {fileName}
          </Typography.Text>
          {disabled ? null : <Button type="text" danger size="small" icon={<DeleteOutlined />} aria-label={labels.remove} onClick={onRemove} />}
        </Flex>
      ) : null}
      {disabled ? null : (
        <Upload accept={accept} maxCount={1} showUploadList={false} beforeUpload={choose}>
          <Button icon={<UploadOutlined />}>{fileName ? labels.replace : labels.attach}</Button>
        </Upload>
      )}
    </Flex>
  );
}
