/**
 * What every command shares: how a plan is printed or written, how warnings and errors reach
 * the user, and how an error becomes an exit code (decisions.md, "Command-line conventions").
 * The service engineer's `submit` and `poll` use these too, so that a remote plan looks the
 * same as a local one.
 */
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { ExitCode, InputError, RouteplanError } from '../errors.js';
import type { ErrorBody, Warning } from '../errors.js';
import { buildGeoJson } from '../output/geojson.js';
import { renderPlanHtml } from '../output/html.js';
import type { Plan } from '../output/plan-types.js';
import { makeStyle, terminalSafe } from '../output/style.js';
import { renderPlanTables } from '../output/table.js';
import { inFlagTerms } from './flag-terms.js';

export type OutputFormat = 'json' | 'geojson' | 'html';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['json', 'geojson', 'html'];

export interface PrintPlanOptions {
  /** The plan as JSON on stdout instead of tables. */
  json?: boolean;
  /** Also write the plan to this file (format from `outputFormat` or the extension). */
  output?: string;
  outputFormat?: OutputFormat;
  /** Colour in the tables; decide it with `colorEnabled`. */
  color?: boolean;
  /** No notes on stderr, and no tables on stdout when the plan goes to a file. */
  quiet?: boolean;
  /** Benchmark plans: numbers in instance units (no clock times, no km). */
  rawUnits?: boolean;
  /** Benchmark plans: planar x/y coordinates on the HTML map. */
  planar?: boolean;
  /** Title of the HTML page. */
  title?: string;
}

export interface IoStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const PROCESS_STREAMS: IoStreams = { stdout: process.stdout, stderr: process.stderr };

/**
 * Prints a plan: tables (or JSON with `json`) on stdout, and writes it to `output` when given.
 * Throws InputError when the output format cannot be told or the file cannot be written.
 */
export async function printPlan(plan: Plan, options: PrintPlanOptions = {}, io: IoStreams = PROCESS_STREAMS): Promise<void> {
  if (options.output === '-') {
    // `-o -`: the plan in the chosen format (JSON unless --output-format says otherwise) is all stdout carries.
    io.stdout.write(renderPlanAs(plan, options.outputFormat ?? 'json', options));
    return;
  }
  if (options.output !== undefined) {
    const format = outputFormatFor(options.output, options.outputFormat);
    await writeOutputFile(options.output, renderPlanAs(plan, format, options));
    if (!options.quiet) io.stderr.write(`routeplan: wrote the plan to ${options.output} (${format})\n`);
  }
  if (options.json) {
    io.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  } else if (!(options.quiet && options.output !== undefined)) {
    io.stdout.write(renderPlanTables(plan, { color: options.color === true, rawUnits: options.rawUnits === true }));
  }
}

/** The format named by `--output-format`, else by the file's extension. Throws InputError. */
export function outputFormatFor(path: string, explicit?: OutputFormat): OutputFormat {
  if (explicit === undefined && path === '-') return 'json';
  if (explicit !== undefined) {
    if (!OUTPUT_FORMATS.includes(explicit)) {
      throw new InputError(`invalid --output-format "${explicit}": expected one of ${OUTPUT_FORMATS.join(', ')}`, [
        { path: '--output-format', message: `expected one of ${OUTPUT_FORMATS.join(', ')}` },
      ]);
    }
    return explicit;
  }
  const extension = extname(path).toLowerCase();
  const byExtension: Record<string, OutputFormat> = { '.json': 'json', '.geojson': 'geojson', '.html': 'html', '.htm': 'html' };
  const format = byExtension[extension];
  if (format === undefined) {
    throw new InputError(`cannot tell the output format of "${path}": use a .json, .geojson or .html file, or --output-format`, [
      { path: '--output', message: 'unknown extension; expected .json, .geojson or .html (or give --output-format)' },
    ]);
  }
  return format;
}

export function renderPlanAs(plan: Plan, format: OutputFormat, options: PrintPlanOptions = {}): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(plan, null, 2)}\n`;
    case 'geojson':
      return `${JSON.stringify(buildGeoJson(plan), null, 2)}\n`;
    case 'html':
      return renderPlanHtml(plan, {
        ...(options.title !== undefined ? { title: options.title } : {}),
        rawUnits: options.rawUnits === true,
        planar: options.planar === true,
      });
  }
}

async function writeOutputFile(path: string, content: string): Promise<void> {
  try {
    await writeFile(path, content, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InputError(
      `cannot write the plan to ${path} (${reason})`,
      [{ path: '--output', message: `cannot write: ${reason}` }],
      undefined,
      { cause: error },
    );
  }
}

/**
 * Colour on stdout only on a terminal, never with `--no-color` (`color: false`) or a non-empty
 * NO_COLOR (https://no-color.org).
 */
export function colorEnabled(
  flags: { color?: boolean },
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (flags.color === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  // A dumb terminal shows escape sequences as text (Emacs shells, some CI logs).
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

export function printWarnings(
  warnings: Warning[],
  options: { quiet?: boolean; color?: boolean } = {},
  io: IoStreams = PROCESS_STREAMS,
): void {
  if (options.quiet) return;
  const style = makeStyle(options.color === true && isTerminal(io.stderr));
  for (const warning of warnings) io.stderr.write(`${style.yellow('routeplan: warning:')} ${formatWarning(warning)}\n`);
}

/** Colour decided for stdout must not leak escape codes into a redirected stderr. */
function isTerminal(stream: NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

export function formatWarning(warning: Warning): string {
  return terminalSafe(warning.path ? `${warning.path}: ${warning.message}` : warning.message);
}

export interface RunOptions {
  /** Errors are also printed to stdout as `{"error": {...}}`. */
  json?: boolean;
  color?: boolean;
}

/**
 * Runs a command's body and turns its outcome into `process.exitCode`: the number it returns
 * (default 0), or the exit code of the error it throws, printed without a stack trace
 * (unless ROUTEPLAN_DEBUG=1). Never throws.
 */
export async function runCommand(
  options: RunOptions,
  body: () => Promise<number | void>,
  io: IoStreams = PROCESS_STREAMS,
): Promise<number> {
  let code: number;
  try {
    code = (await body()) ?? ExitCode.ok;
  } catch (error) {
    code = reportError(error, options, io);
  }
  process.exitCode = code;
  return code;
}

/** Prints an error the conventional way and returns its exit code. */
export function reportError(
  error: unknown,
  options: RunOptions = {},
  io: IoStreams = PROCESS_STREAMS,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const routeplanError = toRouteplanError(error);
  const known = routeplanError && inFlagTerms(routeplanError);
  const style = makeStyle(options.color === true && isTerminal(io.stderr));
  if (known) {
    io.stderr.write(`${style.red('routeplan: error:')} ${known.message}\n`);
    for (const line of detailLines(known)) io.stderr.write(`  ${line}\n`);
    if (options.json) io.stdout.write(`${JSON.stringify(known.toBody())}\n`);
    if (env.ROUTEPLAN_DEBUG === '1' && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return known.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0] || 'unknown error';
  const hint = env.ROUTEPLAN_DEBUG === '1' ? '' : ' (set ROUTEPLAN_DEBUG=1 for details)';
  io.stderr.write(`${style.red('routeplan: internal error:')} ${firstLine}${hint}\n`);
  if (env.ROUTEPLAN_DEBUG === '1' && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  if (options.json) io.stdout.write(`${JSON.stringify(internalErrorBody(firstLine))}\n`);
  return ExitCode.internal;
}

/** The details worth a line of their own: a lone detail the message already spells out is not repeated. */
function detailLines(error: RouteplanError): string[] {
  const lines = error.details.map((detail) => (detail.path ? `${detail.path}: ${detail.message}` : detail.message));
  if (lines.length === 1 && error.message.includes(error.details[0]!.message)) return [];
  return lines;
}

export function internalErrorBody(message: string): ErrorBody {
  return { error: { code: 'internal', message, details: [] } };
}

/** Our own errors, plus file-system errors that can only come from a path the user gave. */
function toRouteplanError(error: unknown): RouteplanError | null {
  if (error instanceof RouteplanError) return error;
  const errno = error as NodeJS.ErrnoException | null;
  const userPathCodes: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'not a directory',
  };
  if (errno && typeof errno === 'object' && typeof errno.code === 'string' && errno.code in userPathCodes) {
    const path = typeof errno.path === 'string' ? errno.path : '';
    const what = userPathCodes[errno.code];
    return new InputError(`cannot read ${path || 'the input'}: ${what}`, [{ path: path || 'file', message: what ?? errno.code }]);
  }
  return null;
}
