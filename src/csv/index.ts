/**
 * CSV tables as spreadsheets export them: RFC 4180 quoting (csv-parse), CRLF or LF line ends, a
 * leading byte-order mark, and the delimiter of the header row — `,`, or `;` and tab, which
 * spreadsheet programs in much of Europe write, often with decimal commas in the numbers.
 *
 * A room of its own below input/, travel/ and geocode/, which all read CSV files: when it lived in
 * input/, travel/ and geocode/ imported input/ while input/ imported them (a loop between folders).
 */
import { CsvError, parse } from 'csv-parse/sync';
import { InputError } from '../errors.js';

export type CsvDelimiter = ',' | ';' | '\t';

export interface CsvRecord {
  /** Spreadsheet row number: the header is row 1, the first data row is row 2. */
  row: number;
  cells: string[];
}

export interface CsvTable {
  header: string[];
  records: CsvRecord[];
  /** The delimiter found in the header row: with `;` or tab, a decimal comma is a decimal point. */
  delimiter: CsvDelimiter;
}

const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];

/**
 * The delimiter the first non-blank line uses most outside quotes (a comma when it has none: a
 * one-column table). Column names never hold a delimiter, so the header row is a safe guide.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const header =
    text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n|\r/)
      .find((line) => line.trim() !== '') ?? '';
  const unquoted = header.replace(/"[^"]*"/g, '');
  const counts = DELIMITERS.map((delimiter) => unquoted.split(delimiter).length - 1);
  const most = Math.max(...counts);
  return most === 0 ? ',' : DELIMITERS[counts.indexOf(most)]!;
}

/** Splits CSV text into records of cells. Throws InputError naming the row of a malformed one. */
export function parseCsvRecords(text: string, fileLabel: string, delimiter: CsvDelimiter = detectDelimiter(text)): string[][] {
  try {
    return parse(text, {
      bom: true,
      delimiter,
      // Rows may be shorter or longer than the header: parseCsvTable says which, by row.
      relax_column_count: true,
      // A quote inside an unquoted cell (`5" pipe`) is a character, as spreadsheets read it.
      relax_quotes: true,
      // Blank lines are kept as records so that row numbers stay those the spreadsheet shows.
      skip_empty_lines: false,
      // Spaces before an opening quote: `a, "b, c"` is two cells.
      ltrim: true,
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const row = typeof error.records === 'number' ? error.records + 1 : null;
    const where = row === null ? fileLabel : `${fileLabel} row ${row}`;
    const reason = csvReason(error);
    throw new InputError(`${where}: ${reason}`, [{ path: where, message: reason }], 'invalid_input', { cause: error });
  }
}

/** The parser's reasons that a user's table can cause, in a spreadsheet user's words. */
const CSV_REASONS: Partial<Record<CsvError['code'], string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed (missing ")',
  CSV_INVALID_CLOSING_QUOTE: 'text follows the closing quote of a quoted field; put the whole cell in quotes and double any " inside it',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE:
    'text follows the closing quote of a quoted field; put the whole cell in quotes and double any " inside it',
};

function csvReason(error: CsvError): string {
  return CSV_REASONS[error.code] ?? error.message;
}

function isBlankRecord(cells: string[]): boolean {
  return cells.every((c) => c.trim() === '');
}

/** Reads a table with a header row; blank lines are skipped, row numbers stay those of the file. */
export function parseCsvTable(text: string, fileLabel: string): CsvTable {
  const delimiter = detectDelimiter(text);
  return tableOfRecords(parseCsvRecords(text, fileLabel, delimiter), fileLabel, delimiter);
}

/**
 * Records of cells (from CSV text, or a spreadsheet's rows) as a table: the first non-blank record
 * is the header, which must name every column once; blank records are skipped, row numbers stay
 * those of the file (record i is row i + 1).
 */
export function tableOfRecords(raw: string[][], fileLabel: string, delimiter: CsvDelimiter): CsvTable {
  const headerIndex = raw.findIndex((r) => !isBlankRecord(r));
  if (headerIndex < 0) {
    throw new InputError(`${fileLabel} is empty: expected a header row naming the columns`, [
      { path: fileLabel, message: 'empty file; expected a header row naming the columns' },
    ]);
  }
  const header = raw[headerIndex]!.map((h) => h.trim());
  const details = header.flatMap((name, column) =>
    name === '' ? [{ path: `${fileLabel} row ${headerIndex + 1}`, message: `column ${column + 1} has no name in the header row` }] : [],
  );
  const seen = new Set<string>();
  for (const name of header) {
    if (name !== '' && seen.has(name)) {
      details.push({ path: `${fileLabel} row ${headerIndex + 1}`, message: `column "${name}" appears twice in the header row` });
    }
    seen.add(name);
  }
  const records: CsvRecord[] = [];
  raw.forEach((cells, index) => {
    if (index <= headerIndex || isBlankRecord(cells)) return;
    const row = index + 1;
    if (cells.length > header.length && cells.slice(header.length).some((c) => c.trim() !== '')) {
      details.push({
        path: `${fileLabel} row ${row}`,
        message: `has ${cells.length} cells but the header names ${header.length} columns`,
      });
    }
    records.push({ row, cells });
  });
  if (details.length > 0) {
    throw new InputError(
      details.length === 1 ? `${details[0]!.path}: ${details[0]!.message}` : `${fileLabel}: ${details.length} problems in the table`,
      details,
    );
  }
  return { header, records, delimiter };
}

/** One row as CSV text, quoting the cells that need it. */
export function csvRow(cells: readonly string[], delimiter: CsvDelimiter = ','): string {
  const needsQuotes = (text: string) => text.includes(delimiter) || /["\n\r]|^\s|\s$/.test(text);
  return cells.map((text) => (needsQuotes(text) ? `"${text.replace(/"/g, '""')}"` : text)).join(delimiter);
}

/** A number written with a decimal comma, as spreadsheets in much of Europe export it: `45,7597`. */
export const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;

/** The cell with its decimal comma as a point when the table is separated by `;` or tabs (the comma can only be the decimal mark there). */
export function withDecimalPoint(cell: string, delimiter: CsvDelimiter): string {
  const text = cell.trim();
  return delimiter !== ',' && DECIMAL_COMMA.test(text) ? text.replace(',', '.') : cell;
}
