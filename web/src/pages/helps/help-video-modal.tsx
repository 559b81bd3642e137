import { useEffect, useState } from 'react';
import { Modal, Typography, theme } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Help } from './use-helps';

/**
 * The help's video, embedded from YouTube. Escape closes it even when the focus is on the page
 * behind (antd's own Escape needs the focus inside the dialog). Closing destroys the player.
 */
export function HelpVideoModal({ help, onClose }: { help: Help | null; onClose(): void }) {
  const { t } = useTranslation('helps');
  const { token } = theme.useToken();
  // The last help shown stays in the dialog while it closes.
  const [shown, setShown] = useState(help);
  if (help && help !== shown) setShown(help);

  useEffect(() => {
    if (!help) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [help, onClose]);

  return (
    <Modal
      open={help !== null}
      title={shown?.title}
      onCancel={onClose}
      footer={null}
      centered
      destroyOnHidden
      width={{ xs: '100%', md: 880 }}
    >
      {shown ? (
        <>
          <div style={{ aspectRatio: '16 / 9', borderRadius: token.borderRadiusLG, overflow: 'hidden', background: token.colorFillSecondary }}>
            <iframe
              src={`https://www.youtube.com/embed/${encodeURIComponent(shown.video)}?autoplay=1`}
              title={shown.title}
              allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
              style={{ width: '100%', height: '100%', border: 0, display: 'block' }}
            />
          </div>
          {shown.description ? (
            <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0, whiteSpace: 'pre-line' }}>
              {shown.description}
            </Typography.Paragraph>
          ) : null}
          {shown.link ? (
            <Typography.Link href={shown.link} target="_blank" rel="noopener noreferrer" style={{ display: 'inline-block', marginTop: 12 }}>
              <LinkOutlined /> {t('openLink')}
            </Typography.Link>
          ) : null}
        </>
      ) : null}
    </Modal>
  );
}
