export type { ContactDetail, ContactView as ContactRecord } from '../../api/types';

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
