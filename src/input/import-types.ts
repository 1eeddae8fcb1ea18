/**
 * The shapes of a spreadsheet import (import-table.ts), in a file of their own without imports, so
 * that the page (src/web, no Node types) can name them too.
 */

export type ImportRole = 'stops' | 'drivers';

export type ImportDelimiter = ',' | ';' | '\t';

export interface ImportRow {
  /** The spreadsheet's row number (the header is row 1 in a file that starts with it). */
  row: number;
  cells: string[];
}

/** POST /v1.0/imports/{role}: the uploaded table. */
export interface InspectedTable {
  format: 'csv' | 'xlsx';
  delimiter: ImportDelimiter;
  header: string[];
  rows: ImportRow[];
  /** Per column: the column it is read as (a `columns` entry, or another column the CLI reads such as load_weight), or null. */
  guesses: (string | null)[];
  /** What a column can be read as, with the page's words for it. */
  columns: { column: string; label: string }[];
}

export interface RowProblem {
  /** null: a problem of the whole table (two columns for one field, too many rows). */
  row: number | null;
  column: string | null;
  message: string;
  path: string;
}

/** POST /v1.0/imports/{role}/items: the rows as stops or drivers, and what is wrong with them. */
export interface ConvertedRows {
  items: { row: number; item: Record<string, unknown> }[];
  problems: RowProblem[];
  warnings: { path: string; message: string }[];
}
