/** Reading a problem file: format from the extension, stdin, JSON/YAML parse errors with line and column. */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { InputError, type ErrorDetail } from '../errors.js';
import type { InputFormat } from './types.js';
import { findJsonDuplicateKeys, findJsonSyntaxProblem, lineColumn } from './json-position.js';
import { formatPath } from './paths.js';
import { NESTING_REASON, rejectDeepNesting } from './nesting.js';
import type { SettingName } from './settings.js';
import { FORMAT_REQUEST } from './settings.js';

const EXTENSIONS: Record<string, InputFormat> = {
  '.json': 'json',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.csv': 'csv',
  '.vrp': 'vrplib',
};

const FORMATS: readonly InputFormat[] = ['json', 'yaml', 'csv', 'solomon', 'vrplib'];

function isInputFormat(value: string): value is InputFormat {
  return (FORMATS as readonly string[]).includes(value);
}

/** The format named by the extension or, for `.txt` and others, recognised from the text. */
export function formatOf(path: string, text: string, forced?: InputFormat): InputFormat {
  if (forced) {
    if (!isInputFormat(forced)) {
      throw new InputError(`Unknown format "${String(forced)}"; use one of ${FORMATS.join(', ')}`, [
        { path: 'format' satisfies SettingName, message: `${JSON.stringify(forced)} is not allowed; use ${FORMATS.join(', ')}` },
      ]);
    }
    return forced;
  }
  const byExtension = EXTENSIONS[extname(path).toLowerCase()];
  if (byExtension) return byExtension;
  const sniffed = sniffFormat(text);
  if (sniffed) return sniffed;
  const what = path === '-' ? 'standard input (neither JSON nor YAML)' : path;
  throw new InputError(`Cannot tell the format of ${what}: name it .json, .yaml, .yml, .csv or .vrp, or ${FORMAT_REQUEST}`, [
    { path, message: 'unknown file format' },
  ]);
}

function sniffFormat(text: string): InputFormat | null {
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('{') || head.startsWith('[')) return 'json';
  if (/^\s*(NAME|TYPE)\s*:/m.test(head) && /NODE_COORD_SECTION/.test(text)) return 'vrplib';
  if (/^\s*VEHICLE\s*$/m.test(text) && /^\s*CUSTOMER\s*$/m.test(text)) return 'solomon';
  if (/^[A-Za-z_][\w ]*:/m.test(head)) return 'yaml';
  return null;
}

/** The file's text; `-` reads stdin. File errors become InputError with the reason in words. */
export async function readSourceText(path: string): Promise<string> {
  if (path === '-') return readStdin();
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw fileError(path, error);
  }
}

function fileError(path: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a directory, not a file'
          : `cannot be read (${code ?? (error as Error).message})`;
  return new InputError(`Cannot read ${path}: ${reason}`, [{ path, message: reason }], 'file_not_readable', { cause: error });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer | string>)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJson(text: string, label: string): unknown {
  const source = text.replace(/^\uFEFF/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    if (source.trim() === '') {
      throw new InputError(`${label}: the file is empty`, [{ path: label, message: 'the file is empty' }], 'invalid_json', {
        cause: error,
      });
    }
    const problem = findJsonSyntaxProblem(source);
    const reason = problem?.reason ?? (error as Error).message.replace(/, ".*" is not valid JSON$/s, '');
    const where = problem ? lineColumn(source, problem.offset) : null;
    const at = where ? ` at line ${where.line}, column ${where.column}` : '';
    throw new InputError(
      `${label}: invalid JSON${at}: ${reason}`,
      [{ path: where ? `${label}:${where.line}:${where.column}` : label, message: `invalid JSON: ${reason}` }],
      'invalid_json',
      { cause: error },
    );
  }
  rejectDeepNesting(parsed, label, 'invalid_json');
  rejectDuplicateKeys(source, label);
  return parsed;
}

/** Like YAML, a field given twice is an error: JSON.parse would keep the last one silently. */
function rejectDuplicateKeys(source: string, label: string): void {
  const details = jsonDuplicateKeyDetails(source);
  if (details.length === 0) return;
  const summary = details.length === 1 ? `${details[0]!.path}: ${details[0]!.message}` : `${details.length} fields given twice`;
  throw new InputError(`${label}: invalid JSON: ${summary}`, details, 'invalid_json');
}

/** Each field given twice in a JSON text, where (the CLI and the service refuse them alike). */
export function jsonDuplicateKeyDetails(source: string): ErrorDetail[] {
  return findJsonDuplicateKeys(source).map((d) => {
    const first = lineColumn(source, d.firstOffset);
    const again = lineColumn(source, d.offset);
    return {
      path: formatPath(d.path),
      message: `given twice (line ${first.line}, column ${first.column} and line ${again.line}, column ${again.column}); keep only one`,
    };
  });
}

export function parseYaml(text: string, label: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const at = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
    throw new InputError(
      `${label}: invalid YAML${at}: ${yamlReason(first, text)}`,
      doc.errors.map((e) => ({
        path: e.linePos?.[0] ? `${label}:${e.linePos[0].line}:${e.linePos[0].col}` : label,
        message: `invalid YAML: ${yamlReason(e, text)}`,
      })),
      'invalid_yaml',
    );
  }
  if (text.trim() === '') {
    throw new InputError(`${label}: the file is empty`, [{ path: label, message: 'the file is empty' }]);
  }
  const value = yamlValue(doc, label);
  rejectDeepNesting(value, label, 'invalid_yaml');
  return value;
}

/**
 * The document's value. An alias to an anchor that does not exist, or aliases multiplying beyond
 * reason (an "alias bomb"), are the input's fault: errors that say so, never internal errors.
 */
function yamlValue(doc: ReturnType<typeof parseDocument>, label: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    const message = (error as Error).message;
    const reason = /Excessive alias count/.test(message)
      ? 'aliases expand to too many nodes (more than 1,000 alias uses); write the entries out'
      : /Unresolved alias/.test(message)
        ? `${message.replace(/^Unresolved alias \(the anchor must be set before the alias\): /, 'the alias *')} names no anchor set before it`
        : message;
    throw new InputError(`${label}: invalid YAML: ${reason}`, [{ path: label, message: `invalid YAML: ${reason}` }], 'invalid_yaml', {
      cause: error,
    });
  }
}

interface YamlProblem {
  code: string;
  message: string;
  pos: [number, number];
}

/** The parser's reason in one line; a repeated key is named, like a repeated JSON field. */
function yamlReason(error: YamlProblem, text: string): string {
  const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  // The parser recurses once a level and reports its own stack overflow: say what it means.
  if (/Maximum call stack size exceeded/.test(reason)) return NESTING_REASON;
  if (error.code !== 'DUPLICATE_KEY') return reason;
  const key = /^[^:\n]+/
    .exec(text.slice(error.pos[0]))?.[0]
    ?.trim()
    .replace(/^["']|["']$/g, '');
  return key ? `the key "${key}" is given twice in one mapping; keep only one` : reason;
}
