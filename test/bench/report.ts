/** Per-instance rows, per-family means and the results/ files (JSON and CSV) of a bench run. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperatorStats } from '../../src/solver/types.js';

export interface InstanceResult {
  instance: string;
  family: string;
  customers: number;
  /** Total distance in the instance's own units; null when the solve failed. */
  cost: number | null;
  bks: number | null;
  /** (cost − bks) / bks × 100; null without a comparable cost. */
  gapPct: number | null;
  routes: number | null;
  bksRoutes: number | null;
  timeSec: number;
  feasible: boolean;
  unserved: number | null;
  /** Checker findings, a cost mismatch, or the crash message. */
  problems: string[];
  /** Unserved customers the checker could still insert into the final plan. */
  missedInserts: string[];
  error: string | null;
  /** The local search's per-operator counters (JSON only), when it ran. */
  operators?: OperatorStats[];
}

export interface FamilySummary {
  family: string;
  instances: number;
  /** Instances with a feasible plan serving every customer: only these enter the mean gap. */
  complete: number;
  meanGapPct: number | null;
  meanTimeSec: number;
  infeasible: number;
}

/** A result's gap counts only when the plan is feasible and serves everyone (else it is not comparable). */
export function isComplete(result: InstanceResult): boolean {
  return result.error === null && result.feasible && result.unserved === 0 && result.gapPct !== null;
}

export function summarizeFamilies(results: InstanceResult[]): FamilySummary[] {
  const families = [...new Set(results.map((r) => r.family))];
  const summaries = families.map((family) =>
    summarize(
      family,
      results.filter((r) => r.family === family),
    ),
  );
  if (families.length > 1) summaries.push(summarize('overall', results));
  return summaries;
}

function summarize(family: string, results: InstanceResult[]): FamilySummary {
  const complete = results.filter(isComplete);
  const mean = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);
  return {
    family,
    instances: results.length,
    complete: complete.length,
    meanGapPct: mean(complete.map((r) => r.gapPct!)),
    meanTimeSec: mean(results.map((r) => r.timeSec)) ?? 0,
    infeasible: results.filter((r) => r.error !== null || !r.feasible).length,
  };
}

export function gapPercent(cost: number, bks: number): number {
  return ((cost - bks) / bks) * 100;
}

const fixed = (value: number | null, digits: number): string => (value === null ? '-' : value.toFixed(digits));

export function formatInstanceHeader(): string {
  return [
    'instance'.padEnd(14),
    'cost'.padStart(10),
    'bks'.padStart(10),
    'gap%'.padStart(7),
    'routes'.padStart(6),
    'bksR'.padStart(5),
    'time s'.padStart(7),
    'feasible'.padStart(9),
    'unserved'.padStart(8),
  ].join(' ');
}

export function formatInstanceRow(r: InstanceResult, costDigits: number): string {
  const feasible = r.error !== null ? 'CRASH' : r.feasible ? 'yes' : 'NO';
  return [
    r.instance.padEnd(14),
    fixed(r.cost, costDigits).padStart(10),
    fixed(r.bks, costDigits).padStart(10),
    fixed(r.gapPct, 2).padStart(7),
    String(r.routes ?? '-').padStart(6),
    String(r.bksRoutes ?? '-').padStart(5),
    r.timeSec.toFixed(1).padStart(7),
    feasible.padStart(9),
    String(r.unserved ?? '-').padStart(8),
  ].join(' ');
}

export function formatFamilyTable(summaries: FamilySummary[]): string {
  const lines = [
    [
      'family'.padEnd(14),
      'n'.padStart(4),
      'complete'.padStart(8),
      'mean gap%'.padStart(10),
      'mean s'.padStart(7),
      'infeasible'.padStart(10),
    ].join(' '),
  ];
  for (const s of summaries) {
    lines.push(
      [
        s.family.padEnd(14),
        String(s.instances).padStart(4),
        String(s.complete).padStart(8),
        fixed(s.meanGapPct, 2).padStart(10),
        s.meanTimeSec.toFixed(1).padStart(7),
        String(s.infeasible).padStart(10),
      ].join(' '),
    );
  }
  return lines.join('\n');
}

const CSV_COLUMNS: (keyof InstanceResult)[] = [
  'instance',
  'family',
  'customers',
  'cost',
  'bks',
  'gapPct',
  'routes',
  'bksRoutes',
  'timeSec',
  'feasible',
  'unserved',
  'error',
  'problems',
  'missedInserts',
];

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = Array.isArray(value) ? value.join(' | ') : typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(results: InstanceResult[]): string {
  const rows = results.map((r) => CSV_COLUMNS.map((c) => csvCell(r[c])).join(','));
  return [CSV_COLUMNS.join(','), ...rows].join('\n') + '\n';
}

/** Writes `<stem>.json` and `<stem>.csv` into `dir`; returns both paths. */
export function writeResultFiles(dir: string, stem: string, meta: object, results: InstanceResult[], families: FamilySummary[]): string[] {
  mkdirSync(dir, { recursive: true });
  const jsonPath = join(dir, `${stem}.json`);
  const csvPath = join(dir, `${stem}.csv`);
  writeFileSync(jsonPath, JSON.stringify({ ...meta, families, instances: results }, null, 2) + '\n');
  writeFileSync(csvPath, toCsv(results));
  return [jsonPath, csvPath];
}

export function timestampStem(prefix: string, date = new Date()): string {
  return `${prefix}-${date
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d+Z$/, 'Z')}`;
}
