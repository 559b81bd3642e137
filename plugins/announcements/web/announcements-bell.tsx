import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, Empty, Flex, Modal, Spin, Tag, Typography, theme } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, companyTimezone, queryKeys, TopBarList, TopBarPopover, topBarRowStyle, useAuth, useQuery, useQueryClient, zonedText } from 'atende/web';
import { AnnouncementImage } from './announcement-image';
import {
  ANNOUNCEMENT_CHANNEL,
  byPriorityThenNewest,
  JOIN_ANNOUNCEMENTS,
  PRIORITY_COLORS,
  type ActiveAnnouncement,
  type ActiveAnnouncementFrame,
} from './announcement-record';

interface ActiveList {
  announcements: ActiveAnnouncement[];
  unread: number;
}

const PATH = '/announcements/active';
const NONE: ActiveAnnouncement[] = [];

/** The list's answer with its items changed (and its unread count made again from them). */
function changed(list: ActiveList, apply: (items: ActiveAnnouncement[]) => ActiveAnnouncement[]): ActiveList {
  const announcements = apply(list.announcements).sort(byPriorityThenNewest);
  return { announcements, unread: announcements.filter((a) => !a.read).length };
}

/**
 * The active announcements of the signed-in user, loaded once and kept live from
 * company-announcement (the frames an ordinary user hears: active ones, and deletes for those gone).
 */
function useActiveAnnouncements() {
  const { realtime } = useAuth();
  const queryClient = useQueryClient();
  const queryKey = useMemo(() => queryKeys.records(PATH), []);
  const query = useQuery({ queryKey, queryFn: ({ signal }) => api.get<ActiveList>(PATH, undefined, { signal }) });

  useEffect(() => {
    const leave = realtime.join(JOIN_ANNOUNCEMENTS);
    const off = realtime.on(ANNOUNCEMENT_CHANNEL, (data) => {
      const frame = data as ActiveAnnouncementFrame;
      const cached = queryClient.getQueryData<ActiveList>(queryKey);
      if (!cached) return;
      if (frame.action === 'delete') {
        queryClient.setQueryData<ActiveList>(queryKey, changed(cached, (items) => items.filter((a) => a.id !== frame.announcementId)));
        return;
      }
      const known = cached.announcements.find((a) => a.id === frame.announcement.id);
      if (known || frame.action === 'create') {
        // A new one is unread by everyone; an edit keeps this user's read state.
        const next = { ...frame.announcement, read: known?.read ?? false };
        queryClient.setQueryData<ActiveList>(queryKey, changed(cached, (items) => [next, ...items.filter((a) => a.id !== next.id)]));
      } else {
        // Made active again: whether this user read it before is the server's to say.
        void queryClient.invalidateQueries({ queryKey });
      }
    });
    return () => {
      off();
      leave();
    };
  }, [realtime, queryClient, queryKey]);

  const markRead = (id: number) => {
    const cached = queryClient.getQueryData<ActiveList>(queryKey);
    if (!cached?.announcements.some((a) => a.id === id && !a.read)) return;
    queryClient.setQueryData<ActiveList>(queryKey, changed(cached, (items) => items.map((a) => (a.id === id ? { ...a, read: true } : a))));
    // Should it fail, the next load shows it unread again: nothing else to undo.
    api.post(`/announcements/${id}/read`).catch(() => undefined);
  };

  return { announcements: query.data?.announcements ?? NONE, unread: query.data?.unread ?? 0, loading: query.isPending, failed: query.isError, markRead };
}

function PriorityTag({ priority }: { priority: ActiveAnnouncement['priority'] }) {
  const { t } = useTranslation('announcements');
  return (
    <Tag color={PRIORITY_COLORS[priority]} style={{ marginInlineEnd: 0 }}>
      {t(`priority.${priority}`)}
    </Tag>
  );
}

interface AnnouncementListProps {
  announcements: ActiveAnnouncement[];
  loading: boolean;
  failed: boolean;
  onPick(a: ActiveAnnouncement): void;
}

function AnnouncementList({ announcements, loading, failed, onPick }: AnnouncementListProps) {
  const { t } = useTranslation('announcements');
  const { token } = theme.useToken();
  const { user } = useAuth();
  const tz = companyTimezone(user);
  if (loading) {
    return (
      <Flex justify="center" style={{ padding: 24 }}>
        <Spin />
      </Flex>
    );
  }
  if (announcements.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(failed ? 'bell.failed' : 'bell.empty')} style={{ margin: 16 }} />;
  }
  return (
    <TopBarList maxHeight="min(420px, 70vh)" testId="announcements-list">
      {announcements.map((a) => (
        <button
          key={a.id}
          type="button"
          onClick={() => onPick(a)}
          data-testid="announcement-item"
          data-read={a.read}
          style={{ ...topBarRowStyle(token, '10px 4px'), alignItems: 'flex-start' }}
        >
          <Flex vertical gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Flex gap={6} align="center">
              {a.read ? null : <Badge status="processing" title={t('bell.unreadMark')} />}
              <Typography.Text strong={!a.read} ellipsis style={{ flex: 1, minWidth: 0 }}>
                {a.title}
              </Typography.Text>
              <PriorityTag priority={a.priority} />
            </Flex>
            <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ marginBottom: 0 }}>
              {a.text}
            </Typography.Paragraph>
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {zonedText(a.createdAt, tz)}
            </Typography.Text>
          </Flex>
          {a.mediaUrl ? <AnnouncementImage url={a.mediaUrl} name={a.mediaName ?? ''} size={56} /> : null}
        </button>
      ))}
    </TopBarList>
  );
}

/** One announcement, whole: its title, priority, date, image and text. Opening it marks it read. */
function AnnouncementDetail({ announcement, onClose }: { announcement: ActiveAnnouncement | null; onClose(): void }) {
  const { t } = useTranslation('announcements');
  const { user } = useAuth();
  return (
    <Modal
      open={announcement !== null}
      title={announcement?.title}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('bell.close')}</Button>}
      destroyOnHidden
      width={560}
    >
      {announcement ? (
        <Flex vertical gap={12}>
          <Flex gap={8} align="center" wrap>
            <PriorityTag priority={announcement.priority} />
            <Typography.Text type="secondary">{zonedText(announcement.createdAt, companyTimezone(user))}</Typography.Text>
          </Flex>
          {announcement.mediaUrl ? <AnnouncementImage url={announcement.mediaUrl} name={announcement.mediaName ?? ''} /> : null}
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{announcement.text}</Typography.Paragraph>
        </Flex>
      ) : null}
    </Modal>
  );
}

/**
 * The top bar's announcements (every user but super users, who write them): a badge with how many
 * are unread, a pop-over listing the active ones by priority then date, and the whole announcement
 * in a dialog, which marks it read for this user.
 */
export function AnnouncementsBell() {
  const { t } = useTranslation('announcements');
  const { announcements, unread, loading, failed, markRead } = useActiveAnnouncements();
  const [open, setOpen] = useState(false);
  const [shownId, setShownId] = useState<number | null>(null);
  // The live one: an edit while it is open shows at once, a delete closes it.
  const shown = announcements.find((a) => a.id === shownId) ?? null;

  const pick = (a: ActiveAnnouncement) => {
    setOpen(false);
    setShownId(a.id);
    markRead(a.id);
  };
  const label = unread > 0 ? `${t('bell.label')}: ${t('bell.unread', { count: unread })}` : t('bell.label');

  return (
    <>
      <TopBarPopover
        icon={<NotificationOutlined style={{ fontSize: 16 }} data-testid="announcements-count" data-count={unread} />}
        name={t('bell.label')}
        label={label}
        title={t('bell.label')}
        count={unread}
        open={open}
        onOpenChange={setOpen}
        // Centred under the button, and shifted to stay on the screen (on a phone the button is mid-bar).
        placement="bottom"
        width={340}
        testId="announcements-bell"
      >
        <AnnouncementList announcements={announcements} loading={loading} failed={failed} onPick={pick} />
      </TopBarPopover>
      <AnnouncementDetail announcement={shown} onClose={() => setShownId(null)} />
    </>
  );
}
