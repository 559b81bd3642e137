import { useState, type ReactNode } from 'react';
import { App, Avatar, Button, Flex, Image, Skeleton, Typography, theme } from 'antd';
import {
  DownloadOutlined,
  EnvironmentOutlined,
  FileOutlined,
  PhoneOutlined,
  UserOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import type { ChatMessage } from '../../../api/types';
import { parseVcard } from './message-text';
import { downloadMedia, useMediaBlob } from './use-media-blob';

/** Media keep a fixed box while they load, so the list does not jump under the reader. */
const MEDIA_WIDTH = 260;
const MEDIA_HEIGHT = 200;
const STICKER_SIZE = 128;

function MediaFailed() {
  const { t } = useTranslation('conversation');
  return (
    <Typography.Text type="secondary" style={{ fontSize: 13 }}>
      <WarningOutlined /> {t('messages.mediaFailed')}
    </Typography.Text>
  );
}

function ImageMedia({ message, sticker }: { message: ChatMessage; sticker: boolean }) {
  const { t } = useTranslation('conversation');
  const { src, failed } = useMediaBlob(message.mediaUrl);
  const width = sticker ? STICKER_SIZE : MEDIA_WIDTH;
  const height = sticker ? STICKER_SIZE : MEDIA_HEIGHT;
  if (failed) return <MediaFailed />;
  if (!src) return <Skeleton.Image active style={{ width, height, maxWidth: '100%' }} />;
  return (
    <Image
      src={src}
      alt={message.mediaName ?? t(sticker ? 'messages.media.sticker' : 'messages.media.image')}
      width={width}
      height={height}
      preview={!sticker}
      style={{ objectFit: sticker ? 'contain' : 'cover', maxWidth: '100%', borderRadius: 6 }}
      data-testid="message-image"
    />
  );
}

/** What a voice note says (a bot's transcription, or the text its voice answer was spoken from), under the audio. */
function Transcript({ text }: { text: string }) {
  const { t } = useTranslation('conversation');
  return (
    <Typography.Paragraph type="secondary" italic title={t('messages.transcript')} style={{ maxWidth: MEDIA_WIDTH, margin: '4px 0 0', fontSize: 13 }} data-testid="message-transcript">
      {text}
    </Typography.Paragraph>
  );
}

function PlayerMedia({ message, kind }: { message: ChatMessage; kind: 'audio' | 'video' }) {
  const { src, failed } = useMediaBlob(message.mediaUrl);
  const transcript = kind === 'audio' && message.transcript ? <Transcript text={message.transcript} /> : null;
  if (failed) {
    return (
      <>
        <MediaFailed />
        {transcript}
      </>
    );
  }
  if (kind === 'audio') {
    const player = src ? (
      <audio controls src={src} style={{ width: MEDIA_WIDTH, maxWidth: '100%', display: 'block' }} data-testid="message-audio" />
    ) : (
      <Skeleton.Input active style={{ width: MEDIA_WIDTH, height: 54, maxWidth: '100%' }} />
    );
    return (
      <>
        {player}
        {transcript}
      </>
    );
  }
  if (!src) return <Skeleton.Node active style={{ width: MEDIA_WIDTH, height: MEDIA_HEIGHT, maxWidth: '100%' }} />;
  return (
    <video controls src={src} width={MEDIA_WIDTH} height={MEDIA_HEIGHT} style={{ maxWidth: '100%', display: 'block', borderRadius: 6 }} data-testid="message-video" />
  );
}

/** A document is fetched only when asked for. */
function FileMedia({ message }: { message: ChatMessage }) {
  const { t } = useTranslation('conversation');
  const { message: toast } = App.useApp();
  const [busy, setBusy] = useState(false);
  const name = message.mediaName || t('messages.media.application');
  const download = async () => {
    if (!message.mediaUrl) return;
    setBusy(true);
    try {
      await downloadMedia(message.mediaUrl, name);
    } catch (err) {
      void toast.error(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<FileOutlined />} onClick={() => void download()} loading={busy} style={{ maxWidth: '100%' }} aria-label={`${t('messages.download')} ${name}`}>
      <Typography.Text ellipsis style={{ maxWidth: 180 }}>
        {name}
      </Typography.Text>
      <DownloadOutlined />
    </Button>
  );
}

/** A bordered card inside the bubble: location, shared contact, call. */
function InlineCard({ icon, children, testId }: { icon: ReactNode; children: ReactNode; testId: string }) {
  const { token } = theme.useToken();
  return (
    <Flex
      gap={10}
      align="flex-start"
      data-testid={testId}
      style={{
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        background: token.colorBgContainer,
        padding: '8px 10px',
        minWidth: 200,
        maxWidth: MEDIA_WIDTH,
      }}
    >
      {icon}
      <Flex vertical style={{ minWidth: 0 }}>
        {children}
      </Flex>
    </Flex>
  );
}

function LocationCard({ location }: { location: NonNullable<ChatMessage['location']> }) {
  const { t } = useTranslation('conversation');
  const { token } = theme.useToken();
  const coordinates = `${location.latitude},${location.longitude}`;
  return (
    <InlineCard icon={<EnvironmentOutlined style={{ fontSize: 24, color: token.colorError }} />} testId="message-location">
      <Typography.Text strong>{location.name || t('messages.media.locationMessage')}</Typography.Text>
      {location.address ? <Typography.Text type="secondary">{location.address}</Typography.Text> : null}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {coordinates}
      </Typography.Text>
      <a href={`https://maps.google.com/?q=${coordinates}`} target="_blank" rel="noopener noreferrer">
        {t('messages.openMap')}
      </a>
    </InlineCard>
  );
}

function VcardCard({ vcard }: { vcard: string }) {
  const { t } = useTranslation('conversation');
  const { name, number } = parseVcard(vcard);
  return (
    <InlineCard icon={<Avatar icon={<UserOutlined />} />} testId="message-vcard">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('messages.contactCard')}
      </Typography.Text>
      <Typography.Text strong>{name || number}</Typography.Text>
      {name && number ? <Typography.Text>{number}</Typography.Text> : null}
    </InlineCard>
  );
}

function CallLog({ body }: { body: string }) {
  const { t } = useTranslation('conversation');
  const { token } = theme.useToken();
  return (
    <InlineCard icon={<PhoneOutlined style={{ fontSize: 20, color: token.colorWarning }} />} testId="message-call">
      <Typography.Text>{body || t('messages.callLog')}</Typography.Text>
    </InlineCard>
  );
}

/** Cards that show the message's body themselves (or a description of what they show). */
const BODY_IN_CARD = new Set<ChatMessage['mediaType']>(['call_log', 'vcard', 'locationMessage']);

/** Whether the message's body is already shown by its media (a card, a document's own name). */
export function mediaShowsBody(message: ChatMessage): boolean {
  return BODY_IN_CARD.has(message.mediaType) || (message.body !== '' && message.body === message.mediaName);
}

/** The media part of a message, or null for plain text. */
export function MessageMedia({ message }: { message: ChatMessage }) {
  switch (message.mediaType) {
    case 'image':
    case 'sticker':
      return message.mediaUrl ? <ImageMedia message={message} sticker={message.mediaType === 'sticker'} /> : null;
    case 'audio':
    case 'video':
      return message.mediaUrl ? <PlayerMedia message={message} kind={message.mediaType} /> : null;
    case 'application':
      return message.mediaUrl ? <FileMedia message={message} /> : null;
    case 'locationMessage':
      return message.location ? <LocationCard location={message.location} /> : null;
    case 'vcard':
      return <VcardCard vcard={message.vcard ?? message.body} />;
    case 'call_log':
      return <CallLog body={message.body} />;
    default:
      return null;
  }
}
