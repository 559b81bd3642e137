import { Skeleton, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMediaBlob } from 'atende/web';

export interface AnnouncementImageProps {
  /** The image's authenticated URL (fetched with the session's token). */
  url: string;
  /** Its file name: the image's alternative text. */
  name: string;
  /** A thumbnail of this size (px, square, cropped); the whole image at the width it has without it. */
  size?: number;
}

/** An announcement's image, fetched as a blob with the token (the API serves it to signed-in users only). */
export function AnnouncementImage({ url, name, size }: AnnouncementImageProps) {
  const { t } = useTranslation('announcements');
  const { token } = theme.useToken();
  const { src, failed } = useMediaBlob(url);
  if (failed) {
    return size ? null : <Typography.Text type="secondary">{t('bell.imageFailed')}</Typography.Text>;
  }
  if (!src) return size ? <Skeleton.Image active style={{ width: size, height: size }} /> : <Skeleton.Image active style={{ width: '100%', height: 160 }} />;
  const style = size
    ? { width: size, height: size, objectFit: 'cover' as const, borderRadius: token.borderRadius, flex: 'none' }
    : { display: 'block', maxWidth: '100%', maxHeight: '60vh', margin: '0 auto', borderRadius: token.borderRadius };
  return <img src={src} alt={name} style={style} data-testid="announcement-image" />;
}
