import { useEffect, useState } from 'react';
import { Badge, Button, Flex, Spin, theme, Tooltip, Typography } from 'antd';
import { DeleteOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

function elapsed(startedAt: number | null, now: number): string {
  const seconds = startedAt === null ? 0 : Math.max(0, Math.floor((now - startedAt) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The input row while a voice note is recorded: cancel, the running time, send. */
export function RecordingBar({ startedAt, onCancel, onSend }: { startedAt: number | null; onCancel(): void; onSend(): void }) {
  const { t } = useTranslation('composer');
  const { token } = theme.useToken();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 500);
    return () => window.clearInterval(timer);
  }, []);
  const recording = startedAt !== null;

  return (
    <Flex align="center" gap={8} style={{ flex: 1, minWidth: 0, minHeight: 32 }} data-testid="composer-recording">
      <Tooltip title={t('audio.cancel')}>
        <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('audio.cancel')} onClick={onCancel} />
      </Tooltip>
      <Flex align="center" gap={8} style={{ flex: 1, minWidth: 0 }} role="status">
        {recording ? (
          <Badge status="processing" color={token.colorError} />
        ) : (
          <Spin size="small" />
        )}
        <Typography.Text ellipsis>{t('audio.recording')}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="composer-recording-time">
          {elapsed(startedAt, now)}
        </Typography.Text>
      </Flex>
      <Tooltip title={t('audio.send')}>
        <Button type="primary" shape="circle" icon={<SendOutlined />} aria-label={t('audio.send')} onClick={onSend} disabled={!recording} />
      </Tooltip>
    </Flex>
  );
}
