import type { Knex } from 'knex';
import { ErrorCode, NotFoundError, outgoingMediaKind, type OutgoingMessage, type PluginApp } from 'atende/plugin';
import { FileList } from './file-list.model.js';
import { optionsOf } from './file-list-view.js';

/** One file list going to one ticket. */
export interface FileListDelivery {
  companyId: number;
  ticketId: number;
  fileListId: number;
  /** The agent who sends it; null for automatic sends (a campaign). */
  userId: number | null;
  /** The text sent first: the list's own message when absent (a campaign may render its variables), none when null or blank. */
  message?: string | null;
}

/** A list's files as another plugin sends them itself (a campaign, outside tickets). */
export interface FileListFiles {
  /** The list's own text. */
  message: string;
  /** Options that have a file, in the list's order: `caption` is the option's name, `path` its stored name. */
  files: { caption: string; path: string; name: string; mime: string }[];
}

/**
 * Sends a file list into a ticket through the durable send queue: its message, then each option
 * that has a file, in the list's order, the option's name as the file's caption. Each message owns
 * a copy of its file, so the list may change or go while the messages wait. The ticket's rules
 * (who may write to it) are the caller's: the files route checks the agent, a campaign its own.
 */
export class FileListSender {
  constructor(private readonly app: PluginApp) {}

  /**
   * Queues the messages inside `trx` (they are sent once it commits, oldest first). Answers their
   * ids. The copies made are removed again when `trx` rolls back. 404 ERR_NO_FILE_LIST_FOUND for a
   * list not of the company, ERR_NO_MEDIA_FOUND when a file has gone from the storage.
   */
  async enqueue(trx: Knex.Transaction, delivery: FileListDelivery): Promise<number[]> {
    const { companyId, ticketId, fileListId, userId } = delivery;
    const { media } = this.app.services;
    const list = await FileList.query(trx).findOne({ id: fileListId, companyId });
    if (!list) throw new NotFoundError(ErrorCode.ERR_NO_FILE_LIST_FOUND);
    const options = await optionsOf(trx, companyId, [list.id]).whereNotNull('path');
    const copies: string[] = [];
    void trx.executionPromise.catch(() => Promise.all(copies.map((copy) => this.discard(companyId, copy))));

    const base: Omit<OutgoingMessage, 'body'> = { companyId, ticketId, userId };
    const sent: number[] = [];
    const text = (delivery.message === undefined ? list.message : delivery.message)?.trim();
    if (text) sent.push((await this.app.services.outbound.enqueue({ ...base, body: text }, trx)).id);
    for (const option of options) {
      const name = option.mediaName ?? option.path!;
      const original = await media.open(companyId, option.path!);
      const copy = (await media.save(companyId, name, original.stream)).name;
      const { mime, type } = outgoingMediaKind(name);
      try {
        sent.push((await this.app.services.outbound.enqueue({ ...base, body: option.name, media: { path: copy, name, mime, type } }, trx)).id);
      } catch (err) {
        // No message owns it, whatever the caller does with the transaction.
        await this.discard(companyId, copy);
        throw err;
      }
      copies.push(copy);
    }
    return sent;
  }

  /** Whether the company has this list (a campaign checks the list it is given). */
  async exists(companyId: number, fileListId: number): Promise<boolean> {
    return (await FileList.query(this.app.db).findOne({ id: fileListId, companyId }).select('id')) !== undefined;
  }

  /** The list's files, read without sending; undefined when the list is not of the company (or gone). */
  async read(companyId: number, fileListId: number): Promise<FileListFiles | undefined> {
    const list = await FileList.query(this.app.db).findOne({ id: fileListId, companyId });
    if (!list) return undefined;
    const options = await optionsOf(this.app.db, companyId, [list.id]).whereNotNull('path');
    return {
      message: list.message,
      files: options.map((option) => {
        const name = option.mediaName ?? option.path!;
        return { caption: option.name, path: option.path!, name, mime: outgoingMediaKind(name).mime };
      }),
    };
  }

  /** As enqueue(), in a transaction of its own; the ticket's new last message is then announced. */
  async send(delivery: FileListDelivery): Promise<number[]> {
    const sent = await this.app.db.transaction((trx) => this.enqueue(trx, delivery));
    await this.app.services.tickets.publish(delivery.companyId, delivery.ticketId);
    return sent;
  }

  private async discard(companyId: number, stored: string): Promise<void> {
    await this.app.services.media.remove(companyId, stored).catch((err: unknown) => this.app.log.warn({ err, stored }, 'file list copy not removed'));
  }
}
