import type { PluginRealtime } from 'atende/plugin';
import {
  ANNOUNCEMENT_CHANNEL,
  type ActiveAnnouncementEvent,
  type ActiveAnnouncementView,
  type AnnouncementEvent,
  type AnnouncementView,
} from './announcement.contract.js';
import type { Announcement } from './announcement.model.js';

export type { ActiveAnnouncementView, AnnouncementView };

/** The rooms (in the plugin's namespace) that JOIN_ANNOUNCEMENTS puts a socket in. */
export const MANAGERS_ROOM = 'managers';
export const READERS_ROOM = 'readers';

/** The image's URL: by stored name, so a replaced image is a new URL (no stale cached copy). */
function mediaUrl(a: Announcement): string | null {
  return a.mediaPath ? `/api/announcements/media/${encodeURIComponent(a.mediaPath)}` : null;
}

export function toAnnouncementView(a: Announcement): AnnouncementView {
  return {
    id: a.id,
    title: a.title,
    text: a.text,
    priority: a.priority,
    status: a.status,
    mediaPath: a.mediaPath,
    mediaName: a.mediaName,
    mediaUrl: mediaUrl(a),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

export function toActiveView(a: Announcement, read: boolean): ActiveAnnouncementView {
  return {
    id: a.id,
    title: a.title,
    text: a.text,
    priority: a.priority,
    mediaName: a.mediaName,
    mediaUrl: mediaUrl(a),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    read,
  };
}

/**
 * Tells every company's sockets that joined: super users the whole change, the other users what
 * they may see (an active announcement, or that one is gone from their list).
 */
export function publishAnnouncement(realtime: PluginRealtime, action: 'create' | 'update' | 'delete', announcement: Announcement): void {
  const managed: AnnouncementEvent =
    action === 'delete' ? { action, announcementId: announcement.id } : { action, announcement: toAnnouncementView(announcement) };
  realtime.publish(null, ANNOUNCEMENT_CHANNEL, managed, MANAGERS_ROOM);
  let shown: ActiveAnnouncementEvent;
  if (action !== 'delete' && announcement.status) {
    const { read: _read, ...view } = toActiveView(announcement, false);
    shown = { action, announcement: view };
  } else {
    shown = { action: 'delete', announcementId: announcement.id };
  }
  realtime.publish(null, ANNOUNCEMENT_CHANNEL, shown, READERS_ROOM);
}
