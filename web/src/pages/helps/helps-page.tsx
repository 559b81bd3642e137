import { useCallback, useState } from 'react';
import { Card, Empty, Flex, Typography, theme } from 'antd';
import { PlayCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { registerTranslations } from '../../i18n';
import { HelpVideoModal } from './help-video-modal';
import { helpsTranslations } from './helps.i18n';
import { useHelps, type Help } from './use-helps';

registerTranslations('helps', helpsTranslations);

const GRID = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 16 } as const;

/** The video's YouTube thumbnail over a plain fill, which is all that shows when it cannot load. */
function Thumbnail({ video }: { video: string }) {
  const { token } = theme.useToken();
  const [failed, setFailed] = useState(false);
  return (
    <div style={{ position: 'relative', aspectRatio: '16 / 9', background: token.colorFillSecondary, overflow: 'hidden' }}>
      {failed ? null : (
        <img
          src={`https://img.youtube.com/vi/${encodeURIComponent(video)}/mqdefault.jpg`}
          alt=""
          loading="lazy"
          onError={() => setFailed(true)}
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' }}
        />
      )}
      <Flex align="center" justify="center" style={{ position: 'absolute', inset: 0 }}>
        <PlayCircleFilled style={{ fontSize: 48, color: token.colorTextLightSolid, background: token.colorBgMask, borderRadius: '50%' }} />
      </Flex>
    </div>
  );
}

function HelpCard({ help, onOpen }: { help: Help; onOpen(help: Help): void }) {
  const { t } = useTranslation('helps');
  return (
    <Card
      hoverable
      cover={<Thumbnail video={help.video} />}
      onClick={() => onOpen(help)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onOpen(help);
        }
      }}
      role="button"
      tabIndex={0}
      aria-label={t('watch', { title: help.title })}
      styles={{ body: { padding: 16 } }}
      data-testid="help-card"
    >
      <Card.Meta
        title={help.title}
        description={help.description ? <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} style={{ margin: 0 }}>{help.description}</Typography.Paragraph> : null}
      />
    </Card>
  );
}

/** /helps: the help videos as a gallery; a card opens its video. */
export default function HelpsPage() {
  const { t } = useTranslation('helps');
  const { token } = theme.useToken();
  const { helps, loading } = useHelps();
  const [playingId, setPlayingId] = useState<number | null>(null);
  const close = useCallback(() => setPlayingId(null), []);
  const open = useCallback((help: Help) => setPlayingId(help.id), []);
  // Looked up in the live list: an edited help plays its new video, a deleted one closes.
  const playing = helps.find((h) => h.id === playingId) ?? null;

  return (
    <Flex vertical gap={16}>
      <Flex align="baseline" gap={8}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('title')}
        </Typography.Title>
        {loading ? null : (
          <Typography.Text type="secondary" data-testid="helps-count">
            {t('count', { count: helps.length })}
          </Typography.Text>
        )}
      </Flex>
      {loading ? (
        <div style={GRID}>
          {[0, 1, 2].map((i) => (
            <Card key={i} loading />
          ))}
        </div>
      ) : helps.length === 0 ? (
        <Flex
          justify="center"
          style={{ padding: 48, background: token.colorBgContainer, borderRadius: token.borderRadiusLG, border: `1px solid ${token.colorBorderSecondary}` }}
        >
          <Empty description={t('empty')} />
        </Flex>
      ) : (
        <div style={GRID}>
          {helps.map((help) => (
            <HelpCard key={help.id} help={help} onOpen={open} />
          ))}
        </div>
      )}
      <HelpVideoModal help={playing} onClose={close} />
    </Flex>
  );
}
