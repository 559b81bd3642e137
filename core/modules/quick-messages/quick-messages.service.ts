import type { Knex } from 'knex';
import type { Infrastructure } from '../../infrastructure.js';
import { isAdmin, type AuthUser } from '../../auth/auth-user.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import type { UploadedFile } from '../media/media-upload.js';
import { QuickMessage } from './quick-message.model.js';
import { QUICK_MESSAGES_PAGE_SIZE, type CreateQuickMessageInput, type UpdateQuickMessageInput } from './quick-messages.schema.js';
import { likePattern } from '../../db/like-pattern.js';
import { displayFileName } from '../../storage/media-storage.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type { QuickMessageView } from '../../contract/views.js';

type Frame = { action: 'create' | 'update'; quickMessage: QuickMessageView } | { action: 'delete'; quickMessageId: number };

function toView(q: QuickMessage): QuickMessageView {
  return {
    id: q.id,
    companyId: q.companyId,
    userId: q.userId,
    shortcode: q.shortcode,
    message: q.message,
    geral: q.geral,
    mediaPath: q.mediaPath,
    mediaName: q.mediaName,
    mediaUrl: q.mediaPath ? `/api/media/${encodeURIComponent(q.mediaPath)}` : null,
    createdAt: q.createdAt,
    updatedAt: q.updatedAt,
  };
}

/**
 * Quick replies. A user sees and writes their own and sees the company's shared ('geral') ones;
 * admins see and write every reply of the company, and only they share one with everyone.
 */
export class QuickMessagesService {
  constructor(private readonly infra: Pick<Infrastructure, 'db' | 'realtime' | 'media' | 'log'>) {}

  /** GET /quick-messages: the replies the caller sees, by shortcode, 20 a page. */
  async list(actor: AuthUser, query: { searchParam: string; pageNumber: number }): Promise<{ records: QuickMessageView[]; count: number; hasMore: boolean }> {
    const filtered = () => {
      const q = this.visible(actor, this.infra.db);
      if (query.searchParam) {
        const like = likePattern(query.searchParam);
        q.where((w) => w.whereRaw("lower(??) like ? escape '!'", ['shortcode', like]).orWhereRaw("lower(??) like ? escape '!'", ['message', like]));
      }
      return q;
    };
    const offset = (query.pageNumber - 1) * QUICK_MESSAGES_PAGE_SIZE;
    const [records, count] = await Promise.all([
      filtered().orderBy('shortcode').orderBy('id').limit(QUICK_MESSAGES_PAGE_SIZE).offset(offset),
      filtered().resultSize(),
    ]);
    return { records: records.map(toView), count, hasMore: offset + records.length < count };
  }

  /** GET /quick-messages/list: for the composer's '/' picker, the caller's own and the shared ones (admins too). */
  async picker(actor: AuthUser): Promise<QuickMessageView[]> {
    const records = await QuickMessage.query(this.infra.db)
      .where('companyId', actor.companyId)
      .where((w) => w.where('geral', true).orWhere('userId', actor.id))
      .orderBy('shortcode')
      .orderBy('id');
    return records.map(toView);
  }

  async show(actor: AuthUser, id: number): Promise<QuickMessageView> {
    return toView(await this.findVisible(actor, this.infra.db, id));
  }

  async create(actor: AuthUser, input: CreateQuickMessageInput): Promise<QuickMessageView> {
    if (input.geral && !isAdmin(actor)) throw new ForbiddenError();
    const record = await QuickMessage.query(this.infra.db).insert({
      companyId: actor.companyId,
      userId: actor.id,
      shortcode: input.shortcode,
      message: input.message,
      geral: input.geral,
      mediaPath: null,
      mediaName: null,
    });
    await this.announce(undefined, record);
    return toView(record);
  }

  async update(actor: AuthUser, id: number, input: UpdateQuickMessageInput): Promise<QuickMessageView> {
    const { before, after } = await this.infra.db.transaction(async (trx) => {
      const current = await this.findEditable(actor, trx, id);
      if (input.geral !== undefined && input.geral !== current.geral && !isAdmin(actor)) throw new ForbiddenError();
      const next = await QuickMessage.query(trx).patchAndFetchById(id, {
        ...(input.shortcode !== undefined && { shortcode: input.shortcode }),
        ...(input.message !== undefined && { message: input.message }),
        ...(input.geral !== undefined && { geral: input.geral }),
      });
      return { before: current, after: next };
    });
    await this.announce(before, after);
    return toView(after);
  }

  async remove(actor: AuthUser, id: number): Promise<void> {
    const record = await this.findEditable(actor, this.infra.db, id);
    await record.$query(this.infra.db).delete();
    await this.dropFile(record);
    await this.announce(record, undefined);
  }

  /** POST /quick-messages/:id/media-upload: stores the file and replaces the previous attachment. */
  async attach(actor: AuthUser, id: number, file: UploadedFile): Promise<QuickMessageView> {
    const current = await this.findEditable(actor, this.infra.db, id);
    const stored = await this.infra.media.save(actor.companyId, file.name, file);
    let after: QuickMessage;
    try {
      after = await QuickMessage.query(this.infra.db).patchAndFetchById(id, { mediaPath: stored.name, mediaName: displayFileName(file.name) });
    } catch (err) {
      await this.infra.media.remove(actor.companyId, stored.name);
      throw err;
    }
    await this.dropFile(current);
    await this.announce(current, after);
    return toView(after);
  }

  /** DELETE /quick-messages/:id/media-upload: the reply keeps its text, without an attachment. */
  async detach(actor: AuthUser, id: number): Promise<QuickMessageView> {
    const current = await this.findEditable(actor, this.infra.db, id);
    const after = await QuickMessage.query(this.infra.db).patchAndFetchById(id, { mediaPath: null, mediaName: null });
    await this.dropFile(current);
    await this.announce(current, after);
    return toView(after);
  }

  // ---- helpers ------------------------------------------------------------------------------

  private visible(actor: AuthUser, db: Knex) {
    const q = QuickMessage.query(db).where('companyId', actor.companyId);
    if (!isAdmin(actor)) q.where((w) => w.where('geral', true).orWhere('userId', actor.id));
    return q;
  }

  /** A reply the caller sees; 404 for another company's or another user's private one. */
  private async findVisible(actor: AuthUser, db: Knex, id: number): Promise<QuickMessage> {
    const record = await this.visible(actor, db).findById(id);
    if (!record) throw new NotFoundError(ErrorCode.ERR_NO_QUICK_MESSAGE_FOUND);
    return record;
  }

  /** A reply the caller may change: their own, or any of the company for admins; a shared reply of someone else is 403. */
  private async findEditable(actor: AuthUser, db: Knex, id: number): Promise<QuickMessage> {
    const record = await this.findVisible(actor, db, id);
    if (!isAdmin(actor) && record.userId !== actor.id) throw new ForbiddenError();
    return record;
  }

  private async dropFile(record: QuickMessage): Promise<void> {
    if (!record.mediaPath) return;
    await this.infra.media.remove(record.companyId, record.mediaPath).catch((err: unknown) => {
      this.infra.log.warn({ err, file: record.mediaPath }, 'quick reply attachment not removed');
    });
  }

  /**
   * Live frames on company-{id}-quickmessage, heard only by who may see the reply: the whole
   * company for a shared one, else its author and the admins. A reply that stops being shared is
   * deleted from everyone's list and re-created for those who still see it.
   */
  private async announce(before: QuickMessage | undefined, after: QuickMessage | undefined): Promise<void> {
    const record = (after ?? before)!;
    const companyId = record.companyId;
    const channel = `company-${companyId}-quickmessage`;
    const toPrivate = async (frame: Frame) => {
      this.infra.realtime.publish(companyId, channel, frame, 'admins');
      if (record.userId === null) return;
      const author = await this.infra.db('users').where({ id: record.userId }).first('profile', 'super');
      if (author && author.profile !== 'admin' && !author.super) this.infra.realtime.publish(companyId, channel, frame, `user:${record.userId}`);
    };
    const toCompany = (frame: Frame) => this.infra.realtime.publish(companyId, channel, frame);

    if (!after) {
      const frame: Frame = { action: 'delete', quickMessageId: record.id };
      await (before!.geral ? toCompany(frame) : toPrivate(frame));
      return;
    }
    const view = toView(after);
    if (after.geral) {
      // Newly shared: a create for those who had not seen it (the others merge it as an update).
      toCompany({ action: before && before.geral ? 'update' : 'create', quickMessage: view });
      return;
    }
    if (before?.geral) toCompany({ action: 'delete', quickMessageId: after.id });
    await toPrivate({ action: before && !before.geral ? 'update' : 'create', quickMessage: view });
  }
}
