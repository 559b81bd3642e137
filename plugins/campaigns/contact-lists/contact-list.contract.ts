/**
 * The contact lists API's answers, declared once for the server and the plugin's pages (which
 * import them as types). No imports, so a page pulls in nothing of the server.
 */

/** Where a list's WhatsApp check stands: `checked` of `total` numbers, `running` while a job works on it. */
export interface ContactListCheck {
  total: number;
  checked: number;
  valid: number;
  invalid: number;
  running: boolean;
  /** Why the check waits, when it does: no connection of the company is connected. */
  waiting: 'no_connection' | null;
}

export interface ContactListView {
  id: number;
  name: string;
  contactsCount: number;
  check: ContactListCheck;
  createdAt: string;
  updatedAt: string;
}

/** GET /contact-lists: a page of 20 by name. */
export interface ContactListPage {
  records: ContactListView[];
  hasMore: boolean;
}

/** GET /contact-lists/list: every list of the company, for selects. */
export interface ContactListChoice {
  id: number;
  name: string;
  contactsCount: number;
}

export interface ContactListItemView {
  id: number;
  contactListId: number;
  companyId: number;
  name: string;
  number: string;
  email: string;
  /** null until the number is checked on WhatsApp. */
  isWhatsappValid: boolean | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /contact-list-items: a page of 20 by name. */
export interface ContactListItemPage {
  contacts: ContactListItemView[];
  hasMore: boolean;
}

export type ContactListRejectReason = 'missing_name' | 'invalid_name' | 'missing_number' | 'invalid_number' | 'invalid_email' | 'duplicate_in_file';

/** POST /contact-lists/:id/upload (and ?dryRun=true): what the file does, or would do, to the list. */
export interface ContactListImportReport {
  dryRun: boolean;
  create: number;
  update: number;
  unchanged: number;
  rejected: { row: number; reason: ContactListRejectReason; message: string; firstRow?: number }[];
  /** The first rows of the file, with what happens to each. */
  rows: { row: number; name: string; number: string; email: string; action: 'create' | 'update' | 'unchanged' | 'rejected' }[];
}

/** The frames of company-{id}-ContactList; the WhatsApp check's progress comes as updates of the list. */
export type ContactListEvent = { action: 'create' | 'update'; contactList: ContactListView } | { action: 'delete'; contactListId: number };

/** The frames of company-{id}-ContactListItem and company-{id}-ContactListItem-{listId}. */
export type ContactListItemEvent =
  | { action: 'create' | 'update'; contactListItem: ContactListItemView }
  | { action: 'delete'; contactListItemId: number; contactListId: number }
  /** Many items changed at once (an import): refetch. */
  | { action: 'reload'; contactListId: number }
  /** A batch of the WhatsApp check. */
  | { action: 'checked'; contactListId: number; items: { id: number; isWhatsappValid: boolean }[] };
