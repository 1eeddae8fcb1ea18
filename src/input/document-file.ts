/**
 * A JSON or YAML problem file's document, after its text is read: parsed, its CSV tables inlined,
 * validated (zod schemas) and, when asked, built into a problem. load-file.ts loads this module
 * only for such files, so that solving a benchmark instance does not load the schemas.
 */
import { dirname } from 'node:path';
import { inlineCsvReferences } from './csv-references.js';
import { parseJson, parseYaml } from './read.js';
import type { LoadedProblem, LoadOptions, ValidatedDocument } from './types.js';
import { resolvedProblemFromDocument, validateDocument } from './validate.js';

/** `resolve`: validated and built (loadProblemFile); `validate`: validated only (validateProblemFile). */
export type DocumentStep = 'resolve' | 'validate';

export async function documentFromText(
  text: string,
  format: 'json' | 'yaml',
  path: string,
  options: LoadOptions,
  step: DocumentStep,
): Promise<LoadedProblem | ValidatedDocument> {
  const label = path === '-' ? 'stdin' : path;
  const parsed = format === 'json' ? parseJson(text, label) : parseYaml(text, label);
  const baseDir = path === '-' ? process.cwd() : dirname(path);
  const { document, origins, referenceErrors, failedKeys, tableWarnings } = await inlineCsvReferences(parsed, baseDir);
  const context = { origins, source: label, csvReferences: true, referenceErrors, failedKeys, tableWarnings };
  return step === 'resolve' ? resolvedProblemFromDocument(document, options, context) : validateDocument(document, options, context);
}
