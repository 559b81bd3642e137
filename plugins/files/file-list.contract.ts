/**
 * The file lists API's answers, declared once for the server and the plugin's pages (which import
 * them as types). No imports, so a page pulls in nothing of the server.
 */

/** One named file of a list; `path` and the media fields are null until its file is uploaded. */
export interface FileListOptionView {
  id: number;
  name: string;
  /** The stored name of its file (what /api/media serves), or null. */
  path: string | null;
  /** The file's MIME type, from its extension (what WhatsApp gets). */
  mediaType: string | null;
  /** The name the user's file had. */
  mediaName: string | null;
  mediaUrl: string | null;
}

/** A file list as the API and the live events show it: options in the order they are sent. */
export interface FileListView {
  id: number;
  companyId: number;
  userId: number | null;
  name: string;
  message: string;
  options: FileListOptionView[];
  createdAt: string;
  updatedAt: string;
}

/** GET /files: a page (20, by name) or, with companyId, every list of the company. */
export interface FileListPage {
  files: FileListView[];
  hasMore: boolean;
}

/** POST /files/:id/send: the messages queued on the ticket, text first. */
export interface FileListSent {
  messageIds: number[];
}

/** The frames of company-{id}-file. */
export type FileListEvent = { action: 'create' | 'update'; fileList: FileListView } | { action: 'delete'; fileListId: number };
