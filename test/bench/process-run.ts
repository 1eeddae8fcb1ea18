/**
 * The `--process` run of an instance set: per instance the warm in-process solve (what the bench
 * has always measured), a fresh `routeplan solve` process of this checkout, optionally one of a
 * baseline checkout (`--baseline`) and VROOM (`--vs vroom`), the fresh processes in an order
 * that alternates per instance so that machine noise hits them alike. Prints a row per instance
 * and a summary with the count of zero-iteration runs; writes results/<set>-process-….json.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import type { Problem } from '../../src/model/problem.js';
import type { BenchArgs } from './args.js';
import { benchmarksRoot, readBks, repoRoot, type BenchmarkSet, type BksEntry, type InstanceEntry } from './benchmark-data.js';
import { benchInstance, leverOptions, selectInstances } from './instance-bench.js';
import {
  benchProcess,
  formatProcessCell,
  formatProcessSummary,
  ownBin,
  summarizeProcess,
  type ProcessResult,
  type ProcessRunOptions,
  type ProcessSummary,
} from './process-bench.js';
import { isComplete, timestampStem, type InstanceResult, type PeerResult } from './report.js';
import { benchVroom, type VroomRunOptions } from './vroom.js';

export interface ProcessRow {
  instance: string;
  /** The warm in-process solve; null with --no-warm. */
  warm: InstanceResult | null;
  processes: ProcessResult[];
  vroom?: PeerResult;
}

type Contender = { kind: 'process'; options: ProcessRunOptions } | { kind: 'vroom'; options: VroomRunOptions };

/** Runs the set; answers whether every plan was feasible and every run succeeded. */
export async function runProcessSet(args: BenchArgs & { set: BenchmarkSet }, vroom: VroomRunOptions | null): Promise<boolean> {
  const entries = selectInstances(args.set, args.filters, args.limit);
  const bks = readBks(args.set);
  const contenders = contendersOf(args, vroom);
  console.log(
    `${args.set}: ${entries.length} instances, ${args.timeSeconds} s, seed ${args.seed}, threads ${args.threads} (data: ${benchmarksRoot()}); ` +
      `${args.warm ? 'warm in-process solve, then ' : ''}fresh processes of ${contenders.map(nameOf).join(', ')} in alternating order`,
  );
  // One untimed solve first, so that the warm column measures a warm JIT as it always has.
  const warmOptions = {
    timeLimitMs: args.timeSeconds * 1000,
    seed: args.seed,
    threads: args.threads,
    maxIterations: null,
    operatorStats: false,
    levers: leverOptions(args),
  };
  if (args.warm) await benchInstance(args.set, entries[0]!, { ...warmOptions, timeLimitMs: 200 }, bks);
  const rows: ProcessRow[] = [];
  for (const [i, entry] of entries.entries()) {
    const row = await benchRow(args.set, entry, bks, args.warm ? warmOptions : null, rotate(contenders, i));
    rows.push(row);
    console.log(formatRow(row));
    for (const problem of [...(row.warm?.problems ?? []), ...row.processes.flatMap((p) => p.problems)].slice(0, 5))
      console.log(`    ! ${problem}`);
  }
  const summaries = summarizeRows(rows, contenders);
  console.log(`\nFresh processes vs the warm in-process solve (mean gap over feasible plans serving every customer):`);
  console.log(formatProcessSummary(summaries));
  const outDir = args.outDir ?? join(repoRoot(), 'results');
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, `${timestampStem(`${args.set}-process-${args.timeSeconds}s`)}.json`);
  const meta = {
    set: args.set,
    timeSeconds: args.timeSeconds,
    seed: args.seed,
    threads: args.threads,
    filters: args.filters,
    date: new Date().toISOString(),
  };
  writeFileSync(path, `${JSON.stringify({ meta, summaries, rows }, null, 2)}\n`);
  console.log(`\nwrote ${path}`);
  return rows.every(
    (r) => (r.warm === null || r.warm.feasible) && r.processes.every((p) => p.feasible) && (r.vroom === undefined || r.vroom.feasible),
  );
}

function contendersOf(args: BenchArgs, vroom: VroomRunOptions | null): Contender[] {
  const common = { timeSeconds: args.timeSeconds, seed: args.seed, threads: args.threads };
  const list: Contender[] = [{ kind: 'process', options: { ...common, bin: ownBin(), label: 'routeplan', levers: leverOptions(args) } }];
  for (const [i, bin] of args.baselines.entries())
    list.push({ kind: 'process', options: { ...common, bin, label: baselineLabel(args.baselines, i) } });
  if (vroom !== null) list.push({ kind: 'vroom', options: vroom });
  return list;
}

/** A baseline's label: its checkout's folder (…/<folder>/bin/routeplan), numbered when two share one. */
export function baselineLabel(bins: readonly string[], i: number): string {
  const folder = (bin: string): string => basename(dirname(dirname(resolve(bin))));
  const name = folder(bins[i]!);
  return bins.filter((b) => folder(b) === name).length > 1 ? `${name}#${i + 1}` : name;
}

function nameOf(c: Contender): string {
  return c.kind === 'vroom' ? `VROOM -x ${c.options.exploration}` : `${c.options.label} (${c.options.bin})`;
}

/** The contenders in the order for instance i: each goes first in turn. */
export function rotate<T>(list: readonly T[], i: number): T[] {
  const k = list.length === 0 ? 0 : i % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

async function benchRow(
  set: BenchmarkSet,
  entry: InstanceEntry,
  bks: Map<string, BksEntry>,
  warmOptions: Parameters<typeof benchInstance>[2] | null,
  order: Contender[],
): Promise<ProcessRow> {
  const problem: Problem = loadBenchmarkText(readFileSync(entry.path, 'utf8'), entry.format, entry.name);
  const best = bks.get(entry.name) ?? null;
  const warm = warmOptions === null ? null : await benchInstance(set, entry, warmOptions, bks);
  const row: ProcessRow = { instance: entry.name, warm, processes: [] };
  for (const c of order) {
    if (c.kind === 'vroom') row.vroom = await benchVroom(problem, best?.distance ?? null, c.options);
    else row.processes.push(await benchProcess(problem, entry, best, c.options));
  }
  // Rows list the processes in a fixed order, whatever order they ran in.
  row.processes.sort((a, b) => (a.label === 'routeplan' ? -1 : b.label === 'routeplan' ? 1 : 0));
  return row;
}

function formatRow(row: ProcessRow): string {
  const warm = row.warm === null ? [] : [row.warm.gapPct === null ? 'warm failed' : `warm ${row.warm.gapPct.toFixed(2)}%`];
  const vroom =
    row.vroom === undefined
      ? []
      : [`vroom ${row.vroom.gapPct === null ? '-' : `${row.vroom.gapPct.toFixed(2)}%`} ${row.vroom.timeSec.toFixed(2)} s`];
  return [row.instance.padEnd(12), ...warm, ...row.processes.map(formatProcessCell), ...vroom].join(' | ');
}

function summarizeRows(rows: ProcessRow[], contenders: Contender[]): ProcessSummary[] {
  const warm = rows.map((r) => r.warm).filter((w): w is InstanceResult => w !== null);
  const summaries: ProcessSummary[] = warm.length === 0 ? [] : [warmSummary(warm)];
  for (const c of contenders) {
    if (c.kind === 'process') {
      summaries.push(
        summarizeProcess(
          `${c.options.label} (fresh)`,
          rows.flatMap((r) => r.processes.filter((p) => p.label === c.options.label)),
        ),
      );
    }
  }
  const peers = rows.map((r) => r.vroom).filter((v): v is PeerResult => v !== undefined);
  if (peers.length > 0) summaries.push(vroomSummary(peers));
  return summaries;
}

function warmSummary(warm: InstanceResult[]): ProcessSummary {
  return plainSummary('warm (in-process)', warm);
}

function vroomSummary(peers: PeerResult[]): ProcessSummary {
  return plainSummary(`VROOM -x ${peers[0]!.exploration}`, peers);
}

/** The summary of solves that report no iterations (the warm in-process solve, VROOM). */
function plainSummary(label: string, results: Array<InstanceResult | PeerResult>): ProcessSummary {
  const complete = results.filter(isComplete);
  return {
    label,
    runs: results.length,
    complete: complete.length,
    meanGapPct: mean(complete.map((r) => r.gapPct!)),
    zeroIterations: 0,
    stoppedByItself: null,
    meanIterations: null,
    meanWallSec: mean(results.map((r) => r.timeSec)) ?? 0,
    infeasible: results.filter((r) => r.error !== null || !r.feasible).length,
  };
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}
