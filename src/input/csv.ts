/**
 * A small RFC 4180 CSV reader: quoted fields with embedded commas, doubled quotes and line
 * breaks, CRLF or LF line ends, and a leading byte-order mark (spreadsheet exports have one).
 */
import { InputError } from '../errors.js';

export interface CsvRecord {
  /** Spreadsheet row number: the header is row 1, the first data row is row 2. */
  row: number;
  cells: string[];
}

export interface CsvTable {
  header: string[];
  records: CsvRecord[];
}

const BOM = '\uFEFF';

/** Splits CSV text into records of cells. Throws InputError for an unterminated quoted field. */
export function parseCsvRecords(text: string, fileLabel: string): string[][] {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let inQuotes = false;
  let quoteStartRecord = 0;
  let i = 0;
  const endCell = () => {
    cells.push(cell);
    cell = '';
  };
  const endRecord = () => {
    endCell();
    records.push(cells);
    cells = [];
  };
  while (i < source.length) {
    const ch = source[i]!;
    if (inQuotes) {
      // Inside quotes a doubled quote is one quote character, a single one closes the field.
      const doubled = ch === '"' && source[i + 1] === '"';
      if (ch === '"' && !doubled) inQuotes = false;
      else cell += ch;
      i += doubled ? 2 : 1;
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      // A quote opens a quoted field only at the start of a cell (spaces before it are dropped).
      cell = '';
      inQuotes = true;
      quoteStartRecord = records.length + 1;
      i++;
    } else if (ch === ',') {
      endCell();
      i++;
    } else if (ch === '\n' || ch === '\r') {
      endRecord();
      i += ch === '\r' && source[i + 1] === '\n' ? 2 : 1;
    } else {
      cell += ch;
      i++;
    }
  }
  if (inQuotes) {
    throw new InputError(`${fileLabel} row ${quoteStartRecord}: a quoted field is never closed (missing ")`, [
      { path: `${fileLabel} row ${quoteStartRecord}`, message: 'a quoted field is never closed (missing ")' },
    ]);
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}

function isBlankRecord(cells: string[]): boolean {
  return cells.every((c) => c.trim() === '');
}

/** Reads a table with a header row; blank lines are skipped, row numbers stay those of the file. */
export function parseCsvTable(text: string, fileLabel: string): CsvTable {
  const raw = parseCsvRecords(text, fileLabel);
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
  return { header, records };
}
