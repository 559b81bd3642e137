/**
 * The announcements API's answers, declared once for the server and the plugin's pages (which
 * import them as types). No imports, so a page pulls in nothing of the server.
 */

/** 1 high (Alta), 2 medium (Média), 3 low (Baixa): the spec's numbers; a new one is low. */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
export const DEFAULT_PRIORITY: AnnouncementPriority = 3;

/** The spec's live channel: one name for every company, announcements being platform-wide. */
export const ANNOUNCEMENT_CHANNEL = 'company-announcement';
/** The client frame that joins the channel's frames: super users get every record, others the active ones. */
export const JOIN_ANNOUNCEMENTS = 'joinAnnouncements';

/** An announcement as the super users' list and dialog show it; its image by its authenticated URL. */
export interface AnnouncementView {
  id: number;
  title: string;
  text: string;
  priority: AnnouncementPriority;
  /** true: Ativo (shown to the users), false: Inativo. */
  status: boolean;
  /** The stored file's name (in the author's company's media), or null. */
  mediaPath: string | null;
  mediaName: string | null;
  /** GET /api/announcements/media/<mediaPath>: any signed-in user may fetch an active one's image. */
  mediaUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An active announcement as a user's top bar shows it: read once this user opened it. */
export interface ActiveAnnouncementView {
  id: number;
  title: string;
  text: string;
  priority: AnnouncementPriority;
  mediaName: string | null;
  mediaUrl: string | null;
  createdAt: string;
  updatedAt: string;
  read: boolean;
}

/**
 * The frames of company-announcement. Super users (who joined) hear every change with the whole
 * record; the others hear only what they may see: an active announcement (without their read
 * state), and a delete when one is deleted or made inactive.
 */
export type AnnouncementEvent =
  | { action: 'create' | 'update'; announcement: AnnouncementView }
  | { action: 'delete'; announcementId: number };

export type ActiveAnnouncementEvent =
  | { action: 'create' | 'update'; announcement: Omit<ActiveAnnouncementView, 'read'> }
  | { action: 'delete'; announcementId: number };
