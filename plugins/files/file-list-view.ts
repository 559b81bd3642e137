import type { Knex } from 'knex';
import type { PluginRealtime } from 'atende/plugin';
import type { FileListEvent, FileListOptionView, FileListView } from './file-list.contract.js';
import { FileList, FileListOption } from './file-list.model.js';

export type { FileListEvent, FileListView };

function toOptionView(o: FileListOption): FileListOptionView {
  return {
    id: o.id,
    name: o.name,
    path: o.path,
    mediaType: o.mediaType,
    mediaName: o.mediaName,
    // As the messages module builds it: /api/media serves the caller's company's files by stored name.
    mediaUrl: o.path ? `/api/media/${encodeURIComponent(o.path)}` : null,
  };
}

/** A list's options in sending order. */
export function optionsOf(db: Knex, companyId: number, fileListIds: number[]) {
  return FileListOption.query(db).where('companyId', companyId).whereIn('fileListId', fileListIds).orderBy('position').orderBy('id');
}

/** The lists as views, in the given order, each with its options (two queries whatever the count). */
export async function toViews(db: Knex, lists: FileList[]): Promise<FileListView[]> {
  if (lists.length === 0) return [];
  const options = await optionsOf(db, lists[0]!.companyId, lists.map((l) => l.id));
  return lists.map((l) => ({
    id: l.id,
    companyId: l.companyId,
    userId: l.userId,
    name: l.name,
    message: l.message,
    options: options.filter((o) => o.fileListId === l.id).map(toOptionView),
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  }));
}

/** One list of a company as a view, or undefined. */
export async function loadFileListView(db: Knex, companyId: number, id: number): Promise<FileListView | undefined> {
  const list = await FileList.query(db).findOne({ id, companyId });
  return list && (await toViews(db, [list]))[0];
}

/** The spec's channel, to every user of the company (all of them read and send lists). */
export function publishFileList(realtime: PluginRealtime, companyId: number, event: FileListEvent): void {
  realtime.publish(companyId, `company-${companyId}-file`, event);
}
