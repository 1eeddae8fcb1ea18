/**
 * The shapes of a spreadsheet import (import-table.ts), derived from import-schema.ts (the one
 * description, which the service's OpenAPI document is made from too); type-only imports, so that
 * the page (src/web, no Node types) can name them.
 */
import type { z } from 'zod';
import type {
  convertedRowsSchema,
  importDelimiterSchema,
  importRowSchema,
  inspectedTableSchema,
  rowProblemSchema,
} from './import-schema.js';

export type ImportRole = 'stops' | 'drivers';

export type ImportDelimiter = z.infer<typeof importDelimiterSchema>;
export type ImportRow = z.infer<typeof importRowSchema>;
export type InspectedTable = z.infer<typeof inspectedTableSchema>;
export type RowProblem = z.infer<typeof rowProblemSchema>;
export type ConvertedRows = z.infer<typeof convertedRowsSchema>;
