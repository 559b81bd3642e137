import type { ImportReportView } from '../../api/types';

export type { ContactDetail, ContactView as ContactRecord } from '../../api/types';

/** What POST /api/contacts/import/preview and /import/file answer. */
export type ImportReport = ImportReportView;
export type ImportAction = ImportReport['rows'][number]['action'];
