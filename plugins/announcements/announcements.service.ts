import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import {
  AppError,
  displayFileName,
  isStoredName,
  ErrorCode,
  isPostgres,
  likePattern,
  NotFoundError,
  ValidationError,
  type AuthUser,
  type MediaStorage,
  type PluginApp,
  type UploadedFile,
} from 'atende/plugin';
import { publishAnnouncement, toActiveView, toAnnouncementView, type ActiveAnnouncementView, type AnnouncementView } from './announcement-view.js';
import { Announcement } from './announcement.model.js';
import {
  ACTIVE_LIMIT,
  ANNOUNCEMENTS_PAGE_SIZE,
  type CreateAnnouncementInput,
  type ListAnnouncementsQuery,
  type UpdateAnnouncementInput,
} from './announcements.schema.js';
import { isAnnouncementImage } from './image-type.js';

const READS = 'announcementReads';

function notFound(): NotFoundError {
  return new NotFoundError(ErrorCode.ERR_NO_ANNOUNCEMENT_FOUND);
}

export function notAnImage(): ValidationError {
  return new ValidationError('The image must be a PNG or JPEG file (png, jpg, jpeg)', undefined, ErrorCode.ERR_ANNOUNCEMENT_NOT_AN_IMAGE);
}

/** The spec's order, everywhere: priority (1 high first), then the newest. */
function inOrder<R>(query: QueryBuilder<Announcement, R>): QueryBuilder<Announcement, R> {
  return query.orderBy('announcements.priority').orderBy('announcements.createdAt', 'desc').orderBy('announcements.id', 'desc');
}

/**
 * Announcements (spec: Announcements page and entity). Platform-wide: super users write them (the
 * routes check who), every company's users read the active ones in their top bar and mark them
 * read, each for themselves. The image is stored in the author's company's media.
 */
export class AnnouncementsService {
  constructor(private readonly app: PluginApp) {}

  private get media(): MediaStorage {
    return this.app.services.media;
  }

  // ---- super users ----------------------------------------------------------------------------

  /** GET /announcements: 20 a page, by priority then newest; the search looks at the title and text. */
  async list(query: ListAnnouncementsQuery): Promise<{ records: AnnouncementView[]; count: number; hasMore: boolean }> {
    const filtered = () => {
      const q = Announcement.query(this.app.db);
      if (query.searchParam) {
        const like = likePattern(query.searchParam);
        q.where((w) => {
          w.whereRaw("lower(??) like ? escape '!'", ['announcements.title', like]).orWhereRaw("lower(??) like ? escape '!'", ['announcements.text', like]);
        });
      }
      return q;
    };
    const offset = (query.pageNumber - 1) * ANNOUNCEMENTS_PAGE_SIZE;
    const [rows, count] = await Promise.all([inOrder(filtered()).limit(ANNOUNCEMENTS_PAGE_SIZE).offset(offset), filtered().resultSize()]);
    return { records: rows.map(toAnnouncementView), count, hasMore: offset + rows.length < count };
  }

  async show(id: number): Promise<AnnouncementView> {
    return toAnnouncementView(await this.find(this.app.db, id));
  }

  /** POST /announcements: stored with the author's company (whose media will hold its image). */
  async create(actor: AuthUser, input: CreateAnnouncementInput): Promise<AnnouncementView> {
    const announcement = await Announcement.query(this.app.db).insertAndFetch({
      companyId: actor.companyId,
      title: input.title,
      text: input.text,
      priority: input.priority,
      status: input.status,
      mediaPath: null,
      mediaName: null,
    });
    publishAnnouncement(this.app.realtime, 'create', announcement);
    return toAnnouncementView(announcement);
  }

  async update(id: number, input: UpdateAnnouncementInput): Promise<AnnouncementView> {
    const announcement = await this.app.db.transaction(async (trx) => {
      await this.find(trx, id, true);
      return Announcement.query(trx).patchAndFetchById(id, input);
    });
    publishAnnouncement(this.app.realtime, 'update', announcement);
    return toAnnouncementView(announcement);
  }

  /** DELETE /announcements/:id: its read marks and its image go with it. */
  async remove(id: number): Promise<void> {
    const announcement = await this.app.db.transaction(async (trx) => {
      const found = await this.find(trx, id, true);
      await Announcement.query(trx).deleteById(id);
      return found;
    });
    if (announcement.mediaPath) await this.discard(announcement.companyId, announcement.mediaPath);
    publishAnnouncement(this.app.realtime, 'delete', announcement);
  }

  /** POST /announcements/:id/media-upload: a PNG or JPEG (by its bytes), replacing the image it had. */
  async attach(id: number, file: UploadedFile): Promise<AnnouncementView> {
    if (!(await isAnnouncementImage(file.name, file.path))) throw notAnImage();
    const { companyId } = await this.find(this.app.db, id);
    const stored = await this.media.save(companyId, file.name, file);
    try {
      return await this.replaceMedia(id, { mediaPath: stored.name, mediaName: displayFileName(file.name) });
    } catch (err) {
      await this.discard(companyId, stored.name);
      throw err;
    }
  }

  /** DELETE /announcements/:id/media-upload */
  async detach(id: number): Promise<AnnouncementView> {
    return this.replaceMedia(id, { mediaPath: null, mediaName: null });
  }

  // ---- every user ---------------------------------------------------------------------------

  /** GET /announcements/active: what the user's top bar lists, by priority then newest, with their read state. */
  async active(actor: AuthUser): Promise<{ announcements: ActiveAnnouncementView[]; unread: number }> {
    const rows = await inOrder(
      Announcement.query(this.app.db)
        .where('announcements.status', true)
        .leftJoin(`${READS} as mine`, (join) => {
          join.on('mine.announcementId', '=', 'announcements.id').andOnVal('mine.userId', '=', actor.id);
        })
        .select('announcements.*', 'mine.readAt as readAt'),
    ).limit(ACTIVE_LIMIT);
    const announcements = (rows as (Announcement & { readAt: string | null })[]).map((a) => toActiveView(a, a.readAt !== null));
    return { announcements, unread: announcements.filter((a) => !a.read).length };
  }

  /** POST /announcements/:id/read: the user has read an active announcement (again is the same). */
  async markRead(actor: AuthUser, id: number): Promise<void> {
    const announcement = await Announcement.query(this.app.db).findById(id);
    if (!announcement?.status) throw notFound();
    await this.app.db(READS).insert({ announcementId: id, userId: actor.id, readAt: new Date().toISOString() }).onConflict(['announcementId', 'userId']).ignore();
  }

  /**
   * GET /announcements/media/:file: the image of an announcement, for any signed-in user while it
   * is active (super users always). The core's /api/media serves a company's files to its own
   * users only, and announcements are read by every company.
   */
  async image(actor: AuthUser, file: string): Promise<{ companyId: number; file: string }> {
    // Not a name the storage makes (a NUL, a path…): no lookup, which PostgreSQL would refuse.
    const announcement = isStoredName(file) ? await Announcement.query(this.app.db).findOne({ mediaPath: file }) : undefined;
    if (!announcement || (!announcement.status && !actor.super)) throw new NotFoundError(ErrorCode.ERR_NO_MEDIA_FOUND);
    return { companyId: announcement.companyId, file };
  }

  // ---- helpers --------------------------------------------------------------------------------

  private async replaceMedia(id: number, media: Pick<Announcement, 'mediaPath' | 'mediaName'>): Promise<AnnouncementView> {
    const { previous, announcement } = await this.app.db.transaction(async (trx) => {
      const found = await this.find(trx, id, true);
      return { previous: found.mediaPath, announcement: await Announcement.query(trx).patchAndFetchById(id, media) };
    });
    if (previous && previous !== media.mediaPath) await this.discard(announcement.companyId, previous);
    publishAnnouncement(this.app.realtime, 'update', announcement);
    return toAnnouncementView(announcement);
  }

  /** The announcement, locked when asked (PostgreSQL), or 404. */
  private async find(db: Knex, id: number, lock = false): Promise<Announcement> {
    const query = Announcement.query(db).findById(id);
    const announcement = await (lock && isPostgres(db) ? query.forUpdate() : query);
    if (!announcement) throw notFound();
    return announcement;
  }

  private async discard(companyId: number, stored: string): Promise<void> {
    await this.media.remove(companyId, stored).catch((err: unknown) => this.app.log.warn({ err, stored }, 'announcement image not removed'));
  }
}

/** An upload refused by its extension answers as one refused by its bytes: 400, not an image. */
export function asImageError(err: unknown): unknown {
  return err instanceof AppError && err.code === ErrorCode.ERR_MEDIA_TYPE_NOT_ALLOWED ? notAnImage() : err;
}
