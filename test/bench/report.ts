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
  /** `--vs vroom`: VROOM's plan on the same instance, checked like ours. */
  vroom?: PeerResult;
}

/** A peer solver's (VROOM's) plan on an instance, re-measured and checked by the bench. */
export interface PeerResult {
  /** Our re-measurement of its routes, in the instance's own units; null when it failed. */
  cost: number | null;
  gapPct: number | null;
  routes: number | null;
  /** Wall time of the peer's process. */
  timeSec: number;
  /** The peer's own solving time, when it reports one (seconds). */
  solvingSec: number | null;
  /** The peer's own cost claim in its input units (not used for the gap). */
  reportedCost: number | null;
  feasible: boolean;
  unserved: number | null;
  problems: string[];
  /** Informational findings (e.g. its own cost disagreeing with the re-measurement). */
  notes: string[];
  error: string | null;
  /** VROOM's `-x` and `-l` for this run. */
  exploration: number;
  limitSec: number | null;
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
export function isComplete(result: Pick<InstanceResult, 'error' | 'feasible' | 'unserved' | 'gapPct'>): boolean {
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

export function formatInstanceHeader(versus = false): string {
  const columns = [
    'instance'.padEnd(14),
    'cost'.padStart(10),
    'bks'.padStart(10),
    'gap%'.padStart(7),
    'routes'.padStart(6),
    'bksR'.padStart(5),
    'time s'.padStart(7),
    'feasible'.padStart(9),
    'unserved'.padStart(8),
  ];
  if (versus) {
    columns.push(
      '|',
      'vroom'.padStart(10),
      'gap%'.padStart(7),
      'routes'.padStart(6),
      'time s'.padStart(7),
      'feasible'.padStart(9),
      'unserved'.padStart(8),
    );
  }
  return columns.join(' ');
}

const feasibleText = (r: { error: string | null; feasible: boolean }): string => (r.error !== null ? 'CRASH' : r.feasible ? 'yes' : 'NO');

export function formatInstanceRow(r: InstanceResult, costDigits: number): string {
  const feasible = feasibleText(r);
  const columns = [
    r.instance.padEnd(14),
    fixed(r.cost, costDigits).padStart(10),
    fixed(r.bks, costDigits).padStart(10),
    fixed(r.gapPct, 2).padStart(7),
    String(r.routes ?? '-').padStart(6),
    String(r.bksRoutes ?? '-').padStart(5),
    r.timeSec.toFixed(r.vroom === undefined ? 1 : 2).padStart(7),
    feasible.padStart(9),
    String(r.unserved ?? '-').padStart(8),
  ];
  if (r.vroom !== undefined) {
    const v = r.vroom;
    columns.push(
      '|',
      fixed(v.cost, costDigits).padStart(10),
      fixed(v.gapPct, 2).padStart(7),
      String(v.routes ?? '-').padStart(6),
      v.timeSec.toFixed(2).padStart(7),
      feasibleText(v).padStart(9),
      String(v.unserved ?? '-').padStart(8),
    );
  }
  return columns.join(' ');
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

/** `--vs vroom`: one family's means for routeplan and VROOM side by side. */
export interface VersusSummary {
  family: string;
  instances: number;
  /** Instances whose plan is feasible and complete (only these enter each mean gap). */
  oursComplete: number;
  vroomComplete: number;
  oursGapPct: number | null;
  vroomGapPct: number | null;
  /** oursGapPct / vroomGapPct; null when either is missing or VROOM's is 0. */
  ratio: number | null;
  oursTimeSec: number;
  vroomTimeSec: number;
  oursInfeasible: number;
  vroomInfeasible: number;
}

export function summarizeVersus(results: InstanceResult[]): VersusSummary[] {
  const families = [...new Set(results.map((r) => r.family))];
  const rows = families.map((family) =>
    versus(
      family,
      results.filter((r) => r.family === family),
    ),
  );
  if (families.length > 1) rows.push(versus('overall', results));
  return rows;
}

function versus(family: string, results: InstanceResult[]): VersusSummary {
  const peers = results.map((r) => r.vroom).filter((v): v is PeerResult => v !== undefined);
  const ours = summarize(family, results);
  const mean = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);
  const vroomComplete = peers.filter(isComplete);
  const vroomGap = mean(vroomComplete.map((v) => v.gapPct!));
  return {
    family,
    instances: results.length,
    oursComplete: ours.complete,
    vroomComplete: vroomComplete.length,
    oursGapPct: ours.meanGapPct,
    vroomGapPct: vroomGap,
    ratio: ours.meanGapPct === null || vroomGap === null || vroomGap === 0 ? null : ours.meanGapPct / vroomGap,
    oursTimeSec: ours.meanTimeSec,
    vroomTimeSec: mean(peers.map((v) => v.timeSec)) ?? 0,
    oursInfeasible: ours.infeasible,
    vroomInfeasible: peers.filter((v) => v.error !== null || !v.feasible).length,
  };
}

export function formatVersusTable(rows: VersusSummary[]): string {
  const lines = [
    [
      'family'.padEnd(14),
      'n'.padStart(4),
      'ours gap%'.padStart(10),
      'vroom gap%'.padStart(10),
      'ratio'.padStart(6),
      'ours s'.padStart(7),
      'vroom s'.padStart(7),
      'complete o/v'.padStart(12),
      'infeasible o/v'.padStart(14),
    ].join(' '),
  ];
  for (const s of rows) {
    lines.push(
      [
        s.family.padEnd(14),
        String(s.instances).padStart(4),
        fixed(s.oursGapPct, 2).padStart(10),
        fixed(s.vroomGapPct, 2).padStart(10),
        fixed(s.ratio, 2).padStart(6),
        s.oursTimeSec.toFixed(2).padStart(7),
        s.vroomTimeSec.toFixed(2).padStart(7),
        `${s.oursComplete}/${s.vroomComplete}`.padStart(12),
        `${s.oursInfeasible}/${s.vroomInfeasible}`.padStart(14),
      ].join(' '),
    );
  }
  return lines.join('\n');
}

/** The family table as Markdown, ready to paste into the README. */
export function formatVersusMarkdown(rows: VersusSummary[], caption: string): string {
  const gap = (value: number | null) => (value === null ? '–' : `${value.toFixed(2)}%`);
  const lines = [
    caption,
    '',
    '| family | n | routeplan gap | VROOM gap | ratio | routeplan s | VROOM s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const s of rows) {
    const incomplete =
      s.oursComplete < s.instances || s.vroomComplete < s.instances ? ` (complete: ${s.oursComplete}/${s.vroomComplete})` : '';
    const family = s.family === 'overall' ? '**overall**' : s.family;
    lines.push(
      `| ${family}${incomplete} | ${s.instances} | ${gap(s.oursGapPct)} | ${gap(s.vroomGapPct)} | ${s.ratio === null ? '–' : s.ratio.toFixed(2)} | ${s.oursTimeSec.toFixed(2)} | ${s.vroomTimeSec.toFixed(2)} |`,
    );
  }
  return lines.join('\n') + '\n';
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

const VROOM_CSV_COLUMNS: (keyof PeerResult)[] = [
  'cost',
  'gapPct',
  'routes',
  'timeSec',
  'solvingSec',
  'reportedCost',
  'feasible',
  'unserved',
  'error',
  'problems',
  'notes',
  'exploration',
  'limitSec',
];

/** One row per instance; with `--vs vroom` also VROOM's columns, prefixed `vroom_`. */
export function toCsv(results: InstanceResult[]): string {
  const versusRun = results.some((r) => r.vroom !== undefined);
  const header = [...CSV_COLUMNS, ...(versusRun ? VROOM_CSV_COLUMNS.map((c) => `vroom_${c}`) : [])];
  const rows = results.map((r) =>
    [...CSV_COLUMNS.map((c) => csvCell(r[c])), ...(versusRun ? VROOM_CSV_COLUMNS.map((c) => csvCell(r.vroom?.[c])) : [])].join(','),
  );
  return [header.join(','), ...rows].join('\n') + '\n';
}

/** Writes `<stem>.json` and `<stem>.csv` into `dir`; returns both paths. */
export function writeResultFiles(
  dir: string,
  stem: string,
  meta: object,
  results: InstanceResult[],
  families: FamilySummary[],
  extra: { versus?: VersusSummary[]; markdown?: string } = {},
): string[] {
  mkdirSync(dir, { recursive: true });
  const jsonPath = join(dir, `${stem}.json`);
  const csvPath = join(dir, `${stem}.csv`);
  const versusPart = extra.versus === undefined ? {} : { versus: extra.versus };
  writeFileSync(jsonPath, JSON.stringify({ ...meta, families, ...versusPart, instances: results }, null, 2) + '\n');
  writeFileSync(csvPath, toCsv(results));
  if (extra.markdown === undefined) return [jsonPath, csvPath];
  const mdPath = join(dir, `${stem}.md`);
  writeFileSync(mdPath, extra.markdown);
  return [jsonPath, csvPath, mdPath];
}

export function timestampStem(prefix: string, date = new Date()): string {
  return `${prefix}-${date
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d+Z$/, 'Z')}`;
}
