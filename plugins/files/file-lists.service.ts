import type { Knex } from 'knex';
import {
  displayFileName,
  ErrorCode,
  ForbiddenError,
  isAdmin,
  isPostgres,
  likePattern,
  NotFoundError,
  outgoingMediaKind,
  ValidationError,
  type AuthUser,
  type PluginApp,
  type UploadedFile,
} from 'atende/plugin';
import type { FileListPage, FileListSent } from './file-list.contract.js';
import { FileList, FileListOption } from './file-list.model.js';
import type { FileListSender } from './file-list-sender.js';
import { loadFileListView, publishFileList, toViews, type FileListView } from './file-list-view.js';
import { FILE_LISTS_PAGE_SIZE, type CreateFileListInput, type FileListOptionInput, type ListFileListsQuery, type UpdateFileListInput } from './file-lists.schema.js';

function notFound(): NotFoundError {
  return new NotFoundError(ErrorCode.ERR_NO_FILE_LIST_FOUND);
}

/** What an upload brings for one option: its new file and, optionally, its new name. */
export interface OptionUpload {
  optionId: number;
  name?: string;
  file: UploadedFile;
}

/**
 * File lists of a company (spec: File list entity, Files page). Every user of the company reads
 * them and sends them into the tickets they may write to; admins create, change and delete them
 * (the page is in the admin section). A list's files are stored per company and removed with
 * their option or their list, after the row's change has committed.
 */
export class FileListsService {
  constructor(
    private readonly app: PluginApp,
    private readonly sender: FileListSender,
  ) {}

  // ---- reads ----------------------------------------------------------------------------------

  /** GET /files: a page of 20 by name (the search looks at name and message), or every list (`companyId` given). */
  async list(actor: AuthUser, query: ListFileListsQuery): Promise<FileListPage> {
    const q = FileList.query(this.app.db).where('companyId', actor.companyId).orderBy('name').orderBy('id');
    if (query.companyId !== undefined) return { files: await toViews(this.app.db, await q), hasMore: false };
    if (query.searchParam) {
      const like = likePattern(query.searchParam);
      q.where((w) => w.whereRaw("lower(??) like ? escape '!'", ['name', like]).orWhereRaw("lower(??) like ? escape '!'", ['message', like]));
    }
    const offset = (query.pageNumber - 1) * FILE_LISTS_PAGE_SIZE;
    // One more than a page tells whether another follows.
    const rows = await q.limit(FILE_LISTS_PAGE_SIZE + 1).offset(offset);
    return { files: await toViews(this.app.db, rows.slice(0, FILE_LISTS_PAGE_SIZE)), hasMore: rows.length > FILE_LISTS_PAGE_SIZE };
  }

  async show(actor: AuthUser, id: number): Promise<FileListView> {
    const view = await loadFileListView(this.app.db, actor.companyId, id);
    if (!view) throw notFound();
    return view;
  }

  // ---- writes ---------------------------------------------------------------------------------

  /** POST /files: the list and its options (files come by upload). */
  async create(actor: AuthUser, input: CreateFileListInput): Promise<FileListView> {
    assertWriter(actor);
    const id = await this.app.db.transaction(async (trx) => {
      const list = await FileList.query(trx).insert({ companyId: actor.companyId, userId: actor.id, name: input.name, message: input.message });
      await this.saveOptions(trx, list, input.options, []);
      return list.id;
    });
    return this.announce(actor.companyId, id, 'create');
  }

  /** PUT /files/:id: options, when given, are the whole set in order; those left out go with their files. */
  async update(actor: AuthUser, id: number, input: UpdateFileListInput): Promise<FileListView> {
    assertWriter(actor);
    const removed = await this.app.db.transaction(async (trx) => {
      const list = await this.lock(trx, actor.companyId, id);
      await FileList.query(trx)
        .findById(id)
        .patch({ ...(input.name !== undefined && { name: input.name }), ...(input.message !== undefined && { message: input.message }) });
      if (input.options === undefined) return [];
      const existing = await FileListOption.query(trx).where({ fileListId: id, companyId: actor.companyId });
      return this.saveOptions(trx, list, input.options, existing);
    });
    await this.discard(actor.companyId, removed);
    return this.announce(actor.companyId, id, 'update');
  }

  /** DELETE /files/:id: the list, its options and their files. */
  async remove(actor: AuthUser, id: number): Promise<void> {
    assertWriter(actor);
    const companyId = actor.companyId;
    const paths = await this.app.db.transaction(async (trx) => {
      await this.lock(trx, companyId, id);
      const options = await FileListOption.query(trx).where({ fileListId: id, companyId });
      await FileListOption.query(trx).delete().where({ fileListId: id, companyId });
      await FileList.query(trx).deleteById(id);
      return filesOf(options);
    });
    await this.discard(companyId, paths);
    publishFileList(this.app.realtime, companyId, { action: 'delete', fileListId: id });
  }

  /**
   * POST /files/uploadList/:fileId: each file becomes its option's (renamed when a name comes with
   * it); a file it replaces is removed. The files are stored first, the rows changed in one
   * transaction; when that fails the new files are removed and the list is as it was.
   */
  async upload(actor: AuthUser, id: number, uploads: OptionUpload[]): Promise<FileListView> {
    assertWriter(actor);
    const companyId = actor.companyId;
    if (new Set(uploads.map((u) => u.optionId)).size !== uploads.length) throw new ValidationError('id: An option appears twice');
    // Checked before anything is written, and again with the row locked.
    if (!(await FileList.query(this.app.db).findOne({ id, companyId }))) throw notFound();
    const stored: string[] = [];
    try {
      for (const upload of uploads) stored.push((await this.app.services.media.save(companyId, upload.file.name, upload.file)).name);
      const replaced = await this.app.db.transaction(async (trx) => {
        await this.lock(trx, companyId, id);
        const options = await FileListOption.query(trx)
          .where({ fileListId: id, companyId })
          .whereIn(
            'id',
            uploads.map((u) => u.optionId),
          );
        const previous: string[] = [];
        for (const [index, upload] of uploads.entries()) {
          const option = options.find((o) => o.id === upload.optionId);
          if (!option) throw new ValidationError(`id: No file ${upload.optionId} in this list`);
          if (option.path) previous.push(option.path);
          await FileListOption.query(trx)
            .findById(option.id)
            .patch({
              path: stored[index]!,
              mediaName: displayFileName(upload.file.name),
              mediaType: outgoingMediaKind(upload.file.name).mime,
              ...(upload.name !== undefined && { name: upload.name }),
            });
        }
        await FileList.query(trx).findById(id).patch({ updatedAt: new Date().toISOString() });
        return previous;
      });
      await this.discard(companyId, replaced);
    } catch (err) {
      await this.discard(companyId, stored);
      throw err;
    }
    return this.announce(companyId, id, 'update');
  }

  /**
   * POST /files/:id/send: the list into a ticket the caller may write to (the core's rule for
   * sending: the ticket visible to them, open, theirs or they an admin).
   */
  async send(actor: AuthUser, id: number, ticketId: number): Promise<FileListSent> {
    if (!(await FileList.query(this.app.db).findOne({ id, companyId: actor.companyId }))) throw notFound();
    const ticket = await this.app.services.messages.writableTicket(actor, ticketId);
    const messageIds = await this.sender.send({ companyId: actor.companyId, ticketId: ticket.id, fileListId: id, userId: actor.id });
    return { messageIds };
  }

  // ---- helpers ------------------------------------------------------------------------------

  /**
   * Writes the options as given (kept ones renamed and placed, new ones added), removes those of
   * `existing` left out and answers their stored files.
   */
  private async saveOptions(trx: Knex.Transaction, list: FileList, given: FileListOptionInput[], existing: FileListOption[]): Promise<string[]> {
    for (const [position, option] of given.entries()) {
      if (option.id === undefined) {
        await FileListOption.query(trx).insert({ companyId: list.companyId, fileListId: list.id, name: option.name, position, path: null, mediaType: null, mediaName: null });
      } else if (existing.some((o) => o.id === option.id)) {
        await FileListOption.query(trx).findById(option.id).patch({ name: option.name, position });
      } else {
        throw new ValidationError(`options.${position}.id: No file ${option.id} in this list`);
      }
    }
    const kept = new Set(given.map((o) => o.id));
    const gone = existing.filter((o) => !kept.has(o.id));
    if (gone.length > 0)
      await FileListOption.query(trx)
        .delete()
        .whereIn(
          'id',
          gone.map((o) => o.id),
        );
    return filesOf(gone);
  }

  /** The list, locked for the transaction on PostgreSQL (SQLite has one writer anyway), or 404. */
  private async lock(trx: Knex.Transaction, companyId: number, id: number): Promise<FileList> {
    const query = FileList.query(trx).findOne({ id, companyId });
    const list = await (isPostgres(trx) ? query.forUpdate() : query);
    if (!list) throw notFound();
    return list;
  }

  private async discard(companyId: number, stored: string[]): Promise<void> {
    for (const name of stored) {
      await this.app.services.media.remove(companyId, name).catch((err: unknown) => this.app.log.warn({ err, stored: name }, 'file list media not removed'));
    }
  }

  private async announce(companyId: number, id: number, action: 'create' | 'update'): Promise<FileListView> {
    const fileList = await loadFileListView(this.app.db, companyId, id);
    if (!fileList) throw notFound();
    publishFileList(this.app.realtime, companyId, { action, fileList });
    return fileList;
  }
}

/** Admins write the lists (the admin section of the menu); everyone reads and sends them. */
function assertWriter(actor: AuthUser): void {
  if (!isAdmin(actor)) throw new ForbiddenError();
}

function filesOf(options: FileListOption[]): string[] {
  return options.flatMap((o) => (o.path ? [o.path] : []));
}
