import type { FileListEvent, FileListOptionView, FileListPage, FileListSent, FileListView } from '../file-list.contract';

/** A file list as the API answers it. */
export type FileListRecord = FileListView;
export type FileListOption = FileListOptionView;
export type { FileListEvent, FileListPage, FileListSent };

export const fileListChannel = (companyId: number) => `company-${companyId}-file`;

/** The server's order: by name. */
export const byName = (a: FileListRecord, b: FileListRecord) => a.name.localeCompare(b.name) || a.id - b.id;

/** The files one upload request carries (the server's MAX_UPLOAD_FILES); more go in several requests. */
export const UPLOAD_BATCH = 10;
