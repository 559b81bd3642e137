import { BaseModel } from 'atende/plugin';
import type { AnnouncementPriority } from './announcement.contract.js';

/** A platform-wide announcement, written by super users and shown to every company's users. */
export class Announcement extends BaseModel {
  static override tableName = 'announcements';
  static override booleanFields = ['status'];

  /** The author's company: its media folder holds the image. */
  companyId!: number;
  title!: string;
  text!: string;
  priority!: AnnouncementPriority;
  status!: boolean;
  /** Stored name in MediaStorage (of companyId). */
  mediaPath!: string | null;
  mediaName!: string | null;
}
