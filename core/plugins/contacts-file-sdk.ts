import { checkRows, readTable, type CandidateRow, type ImportPlan, type ParsedFile } from '../modules/contacts/contacts-file.js';

export type { CandidateRow as ContactsFileRow, ImportPlan as ContactsImportPlan, ParsedFile as ContactsFile };

/**
 * Sorts a file's candidates as the core's import does, against the rows already stored (by number):
 * new numbers are created, a known one takes the file's name, and an empty e-mail cell keeps the
 * e-mail already known; rows that would change nothing are unchanged.
 */
export { planImport as planContactsImport } from '../modules/contacts/contacts-file.js';

/**
 * A contacts spreadsheet read as the core's import reads it: .xlsx (first sheet) or .csv (UTF-8 or
 * Windows-1252; ';', ',' or tab), the header row naming nome/name, numero/número/number and
 * email/e-mail in any case. Each data row is a candidate (name 2-50, number canonical with the
 * Brazilian ninth digit, e-mail valid or empty) or rejected with its reason; a number repeated in the
 * file is rejected after its first row. Throws ValidationError (400 ERR_IMPORT_FILE_TYPE) for an
 * unreadable file, including Excel 97-2003 .xls, which is not read; ERR_IMPORT_NO_HEADER without
 * the header; ERR_IMPORT_TOO_MANY_ROWS beyond 20,000 rows.
 */
export async function readContactsFile(data: Buffer, fileName: string): Promise<ParsedFile> {
  return checkRows(await readTable(data, fileName));
}
