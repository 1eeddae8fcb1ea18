/**
 * The shapes of a spreadsheet import (import-table.ts) as zod schemas: the request of its second
 * step, which import-table.ts validates with, and the answers of both, from which import-types.ts
 * derives the types the page names and the service's OpenAPI document its description.
 */
import { z } from 'zod';
import { warningSchema } from '../error-schema.js';

export const importDelimiterSchema = z.enum([',', ';', '\t']);

export const importRowSchema = z.object({
  /** The spreadsheet's row number (the header is row 1 in a file that starts with it). */
  row: z.number().int().min(1),
  cells: z.array(z.string().max(10_000)),
});

/** POST /v1.0/imports/{role}: the uploaded table. */
export const inspectedTableSchema = z.object({
  format: z.enum(['csv', 'xlsx']),
  delimiter: importDelimiterSchema,
  header: z.array(z.string()),
  rows: z.array(importRowSchema),
  /** Per column: the column it is read as (a `columns` entry, or another column the CLI reads such as load_weight), or null. */
  guesses: z.array(z.string().nullable()),
  /** What a column can be read as, with the page's words for it. */
  columns: z.array(z.object({ column: z.string(), label: z.string() })),
});

/** POST /v1.0/imports/{role}/items: the table as the page read it, and what each header column is read as. */
export const importRequestSchema = z.object({
  file: z.string().min(1).max(200).optional(),
  delimiter: importDelimiterSchema.optional(),
  header: z.array(z.string().max(500)).min(1),
  columns: z.array(z.string().max(500).nullable()),
  rows: z.array(importRowSchema),
  /** For stops: the project's drivers, which a `driver` column's locks must name. */
  driver_names: z.array(z.string().max(500)).max(500).optional(),
});

export const rowProblemSchema = z.object({
  /** null: a problem of the whole table (two columns for one field, too many rows). */
  row: z.number().int().nullable(),
  column: z.string().nullable(),
  message: z.string(),
  path: z.string(),
});

/** POST /v1.0/imports/{role}/items: the rows as stops or drivers, and what is wrong with them. */
export const convertedRowsSchema = z.object({
  items: z.array(z.object({ row: z.number().int(), item: z.record(z.string(), z.unknown()) })),
  problems: z.array(rowProblemSchema),
  warnings: z.array(warningSchema),
});
