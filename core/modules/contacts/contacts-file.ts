import type ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { ValidationError } from '../../errors.js';
import { contactEmail, contactName, contactNumber } from './contacts.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type { ImportRejectReason as RejectReason, ImportRejectedRow as Rejected } from '../../contract/views.js';

/** A file of at most this many data rows is imported at once (the bench's company has 20,000 contacts). */
export const MAX_IMPORT_ROWS = 20_000;
/** How many parsed rows the report shows. */
export const SAMPLE_ROWS = 20;

/** A spreadsheet row: its number as a spreadsheet program shows it (the header is row 1 when it comes first). */
export interface TableRow {
  row: number;
  cells: string[];
}

const REASON_TEXT: Record<RejectReason, string> = {
  missing_name: 'Missing name',
  invalid_name: 'The name must have 2 to 50 characters',
  missing_number: 'Missing number',
  invalid_number: 'The number must have 8 to 50 digits',
  invalid_email: 'Invalid email',
  duplicate_in_file: 'This number is repeated in the file',
};

/** A data row that passed every rule: ready to create or update a contact. */
export interface CandidateRow {
  row: number;
  name: string;
  number: string;
  email: string;
}

export interface ParsedFile {
  candidates: CandidateRow[];
  rejected: Rejected[];
  /** The first rows as read (valid or not), for the preview. */
  sample: { row: number; name: string; number: string; email: string }[];
}

/** What an import does with a file's candidates, against the rows already stored by number. */
export interface ImportPlan {
  creates: CandidateRow[];
  updates: { row: CandidateRow; email: string }[];
  unchanged: CandidateRow[];
}

/**
 * Sorts the candidates into new numbers, changed ones and unchanged ones. A known number takes the
 * file's name; an empty e-mail cell keeps the e-mail already known.
 */
export function planImport(candidates: readonly CandidateRow[], known: ReadonlyMap<string, { name: string; email: string }>): ImportPlan {
  const plan: ImportPlan = { creates: [], updates: [], unchanged: [] };
  for (const row of candidates) {
    const existing = known.get(row.number);
    if (!existing) plan.creates.push(row);
    else {
      const email = row.email || existing.email;
      if (existing.name === row.name && existing.email === email) plan.unchanged.push(row);
      else plan.updates.push({ row, email });
    }
  }
  return plan;
}

type Column = 'name' | 'number' | 'email';

/** Header names people use, compared without case, accents, spaces or punctuation. */
const HEADERS: Record<string, Column> = {
  name: 'name',
  nome: 'name',
  nombre: 'name',
  number: 'number',
  numero: 'number',
  telefone: 'number',
  telefono: 'number',
  phone: 'number',
  celular: 'number',
  whatsapp: 'number',
  email: 'email',
  mail: 'email',
  correo: 'email',
  correoelectronico: 'email',
};

function headerKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Export guards cells against spreadsheet formulas with a leading apostrophe; reading takes it off again. */
function unguard(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

/** Kinds of file told apart by their first bytes, whatever their name says. */
function kindOf(data: Buffer, fileName: string): 'xlsx' | 'csv' {
  if (data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx';
  if (data.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))) {
    // Excel 97-2003 (.xls) is a binary format exceljs does not read.
    throw new ValidationError('Excel 97-2003 files (.xls) cannot be read: save the sheet as .xlsx or .csv', undefined, ErrorCode.ERR_IMPORT_FILE_TYPE);
  }
  if (/\.xlsx$/i.test(fileName)) throw new ValidationError('This .xlsx file is damaged', undefined, ErrorCode.ERR_IMPORT_FILE_TYPE);
  if (data.includes(0)) throw new ValidationError('The file is neither a spreadsheet nor CSV text', undefined, ErrorCode.ERR_IMPORT_FILE_TYPE);
  return 'csv';
}

async function readXlsx(data: Buffer): Promise<TableRow[]> {
  // Loaded by the first spreadsheet imported, not by every server start (about 7 MB of heap).
  const { default: excel } = await import('exceljs');
  const workbook = new excel.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ExcelJS.Buffer);
  } catch {
    throw new ValidationError('This .xlsx file is damaged', undefined, ErrorCode.ERR_IMPORT_FILE_TYPE);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: TableRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let col = 1; col <= row.cellCount; col += 1) cells.push(row.getCell(col).text ?? '');
    rows.push({ row: rowNumber, cells });
  });
  return rows;
}

/** UTF-8 (with or without BOM); a file that is not valid UTF-8 is read as Windows-1252, as older Excel writes CSV. */
function decode(data: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

/** ';' (Excel in Portuguese and Spanish), ',' or a tab: whichever the header line uses most. */
function delimiterOf(text: string): string {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const outsideQuotes = firstLine.replace(/"[^"]*"/g, '');
  const counts = [';', ',', '\t'].map((d) => ({ d, n: outsideQuotes.split(d).length - 1 }));
  counts.sort((a, b) => b.n - a.n);
  return counts[0]!.n > 0 ? counts[0]!.d : ',';
}

function readCsv(data: Buffer): TableRow[] {
  const text = decode(data);
  let records: string[][];
  try {
    records = parse(text, { delimiter: delimiterOf(text), bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false });
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new ValidationError(`The CSV file cannot be read: ${detail}`, undefined, ErrorCode.ERR_IMPORT_FILE_TYPE);
  }
  return records.map((cells, index) => ({ row: index + 1, cells }));
}

/** The rows of a CSV or XLSX file (the first sheet), as text. */
export async function readTable(data: Buffer, fileName: string): Promise<TableRow[]> {
  return kindOf(data, fileName) === 'xlsx' ? readXlsx(data) : readCsv(data);
}

function columnsOf(header: TableRow): Partial<Record<Column, number>> {
  const columns: Partial<Record<Column, number>> = {};
  header.cells.forEach((cell, index) => {
    const column = HEADERS[headerKey(cell)];
    if (column && columns[column] === undefined) columns[column] = index;
  });
  return columns;
}

/**
 * Applies the contact rules to every data row: the first non-empty row is the header (name/nome,
 * number/numero/telefone, email); blank rows are skipped; a bad row is rejected with its reason,
 * and so is a number seen in an earlier row.
 */
export function checkRows(table: TableRow[]): ParsedFile {
  const filled = table.filter((r) => r.cells.some((cell) => cell.trim() !== ''));
  const [header, ...data] = filled;
  const columns = header ? columnsOf(header) : {};
  if (columns.name === undefined || columns.number === undefined) {
    throw new ValidationError('The first row must name the columns: name, number and (optionally) email', undefined, ErrorCode.ERR_IMPORT_NO_HEADER);
  }
  if (data.length > MAX_IMPORT_ROWS) {
    throw new ValidationError(`A file may hold at most ${MAX_IMPORT_ROWS} contacts`, undefined, ErrorCode.ERR_IMPORT_TOO_MANY_ROWS);
  }
  const cell = (r: TableRow, column: Column) => {
    const index = columns[column];
    return index === undefined ? '' : unguard((r.cells[index] ?? '').trim());
  };

  const result: ParsedFile = { candidates: [], rejected: [], sample: [] };
  const firstRowOf = new Map<string, number>();
  const reject = (row: number, reason: RejectReason, firstRow?: number) =>
    result.rejected.push({ row, reason, message: REASON_TEXT[reason], ...(firstRow ? { firstRow } : {}) });

  for (const r of data) {
    const raw = { name: cell(r, 'name'), number: cell(r, 'number'), email: cell(r, 'email') };
    if (result.sample.length < SAMPLE_ROWS) result.sample.push({ row: r.row, ...raw });
    const name = contactName.safeParse(raw.name);
    const number = contactNumber.safeParse(raw.number);
    const email = contactEmail.safeParse(raw.email);
    if (!raw.name) reject(r.row, 'missing_name');
    else if (!name.success) reject(r.row, 'invalid_name');
    else if (!raw.number) reject(r.row, 'missing_number');
    else if (!number.success) reject(r.row, 'invalid_number');
    else if (!email.success) reject(r.row, 'invalid_email');
    else if (firstRowOf.has(number.data)) reject(r.row, 'duplicate_in_file', firstRowOf.get(number.data));
    else {
      firstRowOf.set(number.data, r.row);
      result.candidates.push({ row: r.row, name: name.data, number: number.data, email: email.data });
    }
  }
  return result;
}

/** A cell that a spreadsheet would run as a formula gets a leading apostrophe (OWASP's CSV injection advice). */
function guard(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function csvField(text: string): string {
  const value = guard(text);
  return /[";\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** contatos.csv: UTF-8 with a BOM (so Excel reads the accents), ';' between fields, a header row. */
export function toCsv(contacts: { name: string; number: string; email: string }[]): string {
  const lines = ['name;number;email', ...contacts.map((c) => [c.name, c.number, c.email].map(csvField).join(';'))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
