import type { ActiveAnnouncementEvent, ActiveAnnouncementView, AnnouncementEvent, AnnouncementPriority, AnnouncementView } from '../announcement.contract';

export { ANNOUNCEMENT_CHANNEL, JOIN_ANNOUNCEMENTS } from '../announcement.contract';
export type { AnnouncementPriority };
/** An announcement as the super users' list shows it. */
export type AnnouncementRecord = AnnouncementView;
/** An active one as a user's top bar shows it. */
export type ActiveAnnouncement = ActiveAnnouncementView;
export type AnnouncementFrame = AnnouncementEvent;
export type ActiveAnnouncementFrame = ActiveAnnouncementEvent;

export const PRIORITIES: AnnouncementPriority[] = [1, 2, 3];
/** antd Tag presets per priority. */
export const PRIORITY_COLORS: Record<AnnouncementPriority, string> = { 1: 'red', 2: 'gold', 3: 'blue' };
/** What the server takes (plugins/announcements/image-type.ts) and its size limit. */
export const IMAGE_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The server's order: priority (1 high first), then the newest. */
export const byPriorityThenNewest = (a: { priority: number; createdAt: string; id: number }, b: { priority: number; createdAt: string; id: number }) =>
  a.priority - b.priority || b.createdAt.localeCompare(a.createdAt) || b.id - a.id;
