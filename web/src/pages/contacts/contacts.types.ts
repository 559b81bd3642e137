/** A contact as GET /api/contacts and the live frames carry it. */
export interface ContactRecord {
  id: number;
  uuid: string;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
}

/** GET /api/contacts/:id adds the extra name/value fields. */
export interface ContactDetail extends ContactRecord {
  extraInfo: { id: number; name: string; value: string }[];
}

export type RejectReason = 'missing_name' | 'invalid_name' | 'missing_number' | 'invalid_number' | 'invalid_email' | 'duplicate_in_file';
export type ImportAction = 'create' | 'update' | 'unchanged' | 'rejected';

/** What POST /api/contacts/import/preview and /import/file answer. */
export interface ImportReport {
  create: number;
  update: number;
  unchanged: number;
  rejected: { row: number; reason: RejectReason; message: string; firstRow?: number }[];
  rows: { row: number; name: string; number: string; email: string; action: ImportAction }[];
}
