/**
 * Customer messages are plain text with placeholders for the project and the stop. The built-in
 * templates can be replaced by planned.txt and delivered.txt in a directory (`--smtp-templates`),
 * and revised.txt (the built-in one when the directory has none, so a directory made before revised
 * messages still works), each starting with a `Subject:` line and a blank line; an unknown
 * placeholder stops the service at start, not at the first dispatch.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../../../errors.js';
import { formatClock } from '../../../model/time.js';
import type { NotificationKind } from '../../api-types.js';

export interface Template {
  subject: string;
  body: string;
}

export type Templates = Record<NotificationKind, Template>;

/** What a message may say: only its own project and its own stop. */
export interface MessageFields {
  'project.name': string;
  'project.date': string;
  'stop.name': string;
  'stop.address': string;
  /** The promised window ("between 09:00 and 10:15"): the planned one, or the revised one in a revised message. */
  window: string;
  /** In a revised message: the window it replaces. */
  previous_window: string;
  delivered_at: string;
  /** The customer's tracking page (empty for a dispatch made before tracking links). */
  tracking_url: string;
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const KNOWN: readonly string[] = [
  'project.name',
  'project.date',
  'stop.name',
  'stop.address',
  'window',
  'previous_window',
  'delivered_at',
  'tracking_url',
] satisfies (keyof MessageFields)[];

export const DEFAULT_TEMPLATES: Templates = {
  planned: {
    subject: 'Your delivery on {{project.date}}: {{window}}',
    body: [
      'Hello,',
      '',
      'Your delivery from {{project.name}} is planned on {{project.date}}, {{window}}.',
      'Delivery address: {{stop.address}}',
      'Follow your delivery on the day: {{tracking_url}}',
      '',
      'This message was sent automatically; if the time changes on the day, we will write again.',
    ].join('\n'),
  },
  delivered: {
    subject: 'Delivered: your order from {{project.name}}',
    body: [
      'Hello,',
      '',
      'Your delivery from {{project.name}} was made at {{delivered_at}}.',
      'Delivery address: {{stop.address}}',
      'Details: {{tracking_url}}',
    ].join('\n'),
  },
  revised: {
    subject: 'New time for your delivery on {{project.date}}: {{window}}',
    body: [
      'Hello,',
      '',
      'Your delivery from {{project.name}} on {{project.date}} will not come {{previous_window}} as we wrote:',
      'it is now expected {{window}}.',
      'Delivery address: {{stop.address}}',
      'Follow your delivery: {{tracking_url}}',
      '',
      'This message was sent automatically.',
    ].join('\n'),
  },
};

/** The built-in templates, or those of `directory` (planned.txt and delivered.txt required, revised.txt optional). */
export async function loadTemplates(directory: string | undefined): Promise<Templates> {
  if (directory === undefined) return DEFAULT_TEMPLATES;
  const revisedFile = join(directory, 'revised.txt');
  return {
    planned: await loadTemplate(join(directory, 'planned.txt')),
    delivered: await loadTemplate(join(directory, 'delivered.txt')),
    revised: existsSync(revisedFile) ? await loadTemplate(revisedFile) : DEFAULT_TEMPLATES.revised,
  };
}

async function loadTemplate(file: string): Promise<Template> {
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  } catch (error) {
    throw templateError(file, 0, `cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, error);
  }
  const lines = text.split('\n');
  const subject = /^Subject:\s*(.*)$/i.exec(lines[0] ?? '');
  if (!subject || subject[1]!.trim() === '') throw templateError(file, 1, 'the first line must be "Subject: …"');
  if ((lines[1] ?? '').trim() !== '') throw templateError(file, 2, 'a blank line must follow the Subject line');
  lines.forEach((line, index) => checkPlaceholders(line, file, index + 1));
  return { subject: subject[1]!.trim(), body: lines.slice(2).join('\n') };
}

function checkPlaceholders(line: string, file: string, lineNumber: number): void {
  for (const match of line.matchAll(PLACEHOLDER)) {
    if (!KNOWN.includes(match[1]!)) {
      throw templateError(file, lineNumber, `unknown placeholder {{${match[1]}}}; use ${KNOWN.map((name) => `{{${name}}}`).join(', ')}`);
    }
  }
}

function templateError(file: string, line: number, message: string, cause?: unknown): InputError {
  const where = line > 0 ? `${file}:${line}` : file;
  return new InputError(
    `invalid --smtp-templates: ${where}: ${message}`,
    [{ path: where, message }],
    undefined,
    cause ? { cause } : undefined,
  );
}

/** The message for one customer. Nothing from the fields can add a header line to the subject. */
export function render(template: Template, fields: MessageFields): { subject: string; text: string } {
  const fill = (text: string): string => text.replace(PLACEHOLDER, (_, name: string) => fields[name as keyof MessageFields] ?? '');
  return {
    subject: fill(template.subject)
      .replace(/[\r\n]+/g, ' ')
      .trim(),
    text: fill(template.body),
  };
}

/** A promised window in words; "during the day" for a stop without planned times. */
export function promiseText(promised: { start_s: number; end_s: number } | undefined): string {
  return promised === undefined ? 'during the day' : windowText(promised.start_s, promised.end_s);
}

/** "between 08:15 and 08:25" (past midnight: "+1 day"); the day only when the plan has no times. */
export function windowText(startS: number | null, finishS: number | null): string {
  if (startS === null) return 'during the day';
  const end = finishS ?? startS;
  return startS === end ? `at ${clock(startS)}` : `between ${clock(startS)} and ${clock(end)}`;
}

function clock(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const text = formatClock(seconds - days * 86_400);
  return days > 0 ? `${text} (+${days} day${days > 1 ? 's' : ''})` : text;
}

/** "09:41 UTC on 2026-11-24": the service knows the moment, not the customer's time zone. */
export function deliveredText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(11, 16)} UTC on ${date.toISOString().slice(0, 10)}`;
}
