/**
 * An uploaded spreadsheet's bytes → a table of text cells: CSV (`,`, `;` or tab, as src/csv/ reads
 * it) or XLSX (its first sheet, read by the read-excel-file package). Anything else — an old .xls,
 * a PDF, an image, random bytes — is refused with what to do instead.
 */
import readXlsxFile from 'read-excel-file/node';
import { InputError } from '../errors.js';
import { parseCsvTable, tableOfRecords, type CsvTable } from '../csv/index.js';

export type SpreadsheetFormat = 'csv' | 'xlsx';

export interface Spreadsheet extends CsvTable {
  format: SpreadsheetFormat;
}

/** XLSX (and every Office Open XML file) is a ZIP archive; Excel 97–2003 .xls is an OLE2 compound file. */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE2_MAGIC = [0xd0, 0xcf, 0x11, 0xe0];

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

export async function readSpreadsheet(bytes: Uint8Array, label: string): Promise<Spreadsheet> {
  if (bytes.length === 0) throw notASpreadsheet(label, 'the file is empty; expected a header row naming the columns', 'empty_file');
  if (startsWith(bytes, OLE2_MAGIC)) {
    throw notASpreadsheet(label, 'an Excel 97–2003 workbook (.xls) cannot be read; save it as .xlsx or CSV and upload that');
  }
  if (startsWith(bytes, ZIP_MAGIC)) return { ...(await firstSheet(bytes, label)), format: 'xlsx' };
  return { ...parseCsvTable(textOf(bytes, label), label), format: 'csv' };
}

async function firstSheet(bytes: Uint8Array, label: string): Promise<CsvTable> {
  let rows: unknown[][];
  try {
    const sheets = await readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    rows = sheets[0]?.data ?? [];
  } catch (error) {
    throw notASpreadsheet(
      label,
      'a ZIP archive that is no readable XLSX workbook; save the sheet as .xlsx or CSV and upload that',
      undefined,
      error,
    );
  }
  const cells = rows.map((row) => row.map(cellText));
  if (!cells.some((row) => row.some((cell) => cell.trim() !== ''))) {
    throw notASpreadsheet(label, 'the first sheet is empty; expected a header row naming the columns', 'empty_file');
  }
  // Cells are typed in a workbook: a comma in a text cell is no decimal mark the table could tell.
  return tableOfRecords(cells, label, ',');
}

/**
 * A cell as the text a CSV export of it would hold. A time of day (a cell formatted as time) is
 * `HH:mm`, a date alone `YYYY-MM-DD`; the workbook's dates are read in UTC, as the library gives them.
 */
function cellText(value: unknown): string {
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function dateText(date: Date): string {
  const iso = date.toISOString();
  // Excel's day 0 (1899-12-30/31): the cell holds a time of day only.
  if (date.getUTCFullYear() < 1900) return iso.slice(11, date.getUTCSeconds() === 0 ? 16 : 19);
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 16).replace('T', ' ');
}

/**
 * CSV bytes as text: UTF-8 (with or without a byte-order mark), else Windows-1252, which Excel
 * writes for "CSV" on Windows. Control characters do not occur in a spreadsheet's text: such bytes
 * are some other kind of file.
 */
function textOf(bytes: Uint8Array, label: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  // eslint-disable-next-line no-control-regex -- looking for exactly those bytes
  if (/[\u0000-\u0008\u000e-\u001f\u007f]/.test(text)) {
    throw notASpreadsheet(
      label,
      'this is not a spreadsheet: upload a CSV file (separated by commas, semicolons or tabs) or an XLSX workbook',
    );
  }
  if (text.replace(/^\uFEFF/, '').trim() === '') {
    throw notASpreadsheet(label, 'the file is empty; expected a header row naming the columns', 'empty_file');
  }
  return text;
}

function notASpreadsheet(label: string, message: string, code = 'not_a_spreadsheet', cause?: unknown): InputError {
  return new InputError(`${label}: ${message}`, [{ path: label, message }], code, cause === undefined ? undefined : { cause });
}
