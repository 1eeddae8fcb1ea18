/**
 * Where the shared benchmark data lives and how to read its listings and BKS tables.
 * Data root: $ROUTEPLAN_BENCHMARKS, else ../shared/benchmarks beside the repository root.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchmarkFormat } from '../../src/input/benchmark/index.js';

export type BenchmarkSet = 'solomon' | 'homberger-200' | 'homberger-400' | 'homberger-600' | 'homberger-800' | 'homberger-1000' | 'cvrp-x';

export const BENCHMARK_SETS: readonly BenchmarkSet[] = [
  'solomon',
  'homberger-200',
  'homberger-400',
  'homberger-600',
  'homberger-800',
  'homberger-1000',
  'cvrp-x',
];

export interface InstanceEntry {
  name: string;
  path: string;
  format: BenchmarkFormat;
  /** The DIMACS/CVRPLIB route file backing the BKS value, when present. */
  solutionPath: string | null;
}

export interface BksEntry {
  instance: string;
  /** In the instance's own units (e.g. 1637.7). */
  distance: number;
  vehicles: number;
  convention: string;
}

/** The repository root: the nearest ancestor of this file holding package.json (works from src and dist). */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the repository root (no package.json above the bench code)');
    dir = parent;
  }
  return dir;
}

export function benchmarksRoot(): string {
  const fromEnv = process.env['ROUTEPLAN_BENCHMARKS'];
  return fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : join(repoRoot(), '..', 'shared', 'benchmarks');
}

export function benchmarksAvailable(): boolean {
  return existsSync(join(benchmarksRoot(), 'solomon', 'bks.csv'));
}

interface SetLayout {
  folder: string;
  solutions: string;
  bks: string;
  format: BenchmarkFormat;
  extension: string;
}

function layoutOf(set: BenchmarkSet): SetLayout {
  if (set === 'solomon') {
    return { folder: 'solomon', solutions: 'solomon/bks-solutions', bks: 'solomon/bks.csv', format: 'solomon', extension: '.txt' };
  }
  if (set === 'cvrp-x') {
    return { folder: 'cvrp-x', solutions: 'cvrp-x/bks-solutions', bks: 'cvrp-x/bks.csv', format: 'vrplib', extension: '.vrp' };
  }
  const size = set.slice('homberger-'.length);
  return {
    folder: `homberger/${size}`,
    solutions: `homberger/bks-solutions/${size}`,
    bks: 'homberger/bks.csv',
    format: 'solomon',
    extension: '.txt',
  };
}

/** The set's instances in natural order (C101 < C102 < … , X by size). */
export function listInstances(set: BenchmarkSet, root = benchmarksRoot()): InstanceEntry[] {
  const layout = layoutOf(set);
  const folder = join(root, layout.folder);
  if (!existsSync(folder)) throw new Error(`benchmark folder not found: ${folder} (set ROUTEPLAN_BENCHMARKS)`);
  return readdirSync(folder)
    .filter((file) => file.endsWith(layout.extension))
    .map((file) => {
      const name = basename(file, layout.extension);
      const solution = join(root, layout.solutions, `${name}.sol`);
      return { name, path: join(folder, file), format: layout.format, solutionPath: existsSync(solution) ? solution : null };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}

/** The BKS table of a set, keyed by instance name. */
export function readBks(set: BenchmarkSet, root = benchmarksRoot()): Map<string, BksEntry> {
  const path = join(root, layoutOf(set).bks);
  const [header, ...rows] = readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
  const columns = (header ?? '').split(',');
  const col = (label: string): number => {
    const at = columns.indexOf(label);
    if (at < 0) throw new Error(`${path}: missing column ${label}`);
    return at;
  };
  const [iName, iDistance, iVehicles, iConvention] = [col('instance'), col('bks_distance'), col('bks_vehicles'), col('convention')];
  const table = new Map<string, BksEntry>();
  for (const row of rows) {
    const cells = row.split(',');
    table.set(cells[iName]!, {
      instance: cells[iName]!,
      distance: Number(cells[iDistance]),
      vehicles: Number(cells[iVehicles]),
      convention: cells[iConvention]!,
    });
  }
  return table;
}

/** A `.sol` file: routes of customer numbers (depot omitted) and the stated cost. */
export interface SolutionFile {
  routes: number[][];
  cost: number;
}

export function parseSolutionFile(text: string): SolutionFile {
  const routes: number[][] = [];
  let cost = NaN;
  for (const line of text.split(/\r?\n/)) {
    const route = /^Route\s*#\d+\s*:(.*)$/i.exec(line.trim());
    if (route !== null) {
      routes.push(
        route[1]!
          .trim()
          .split(/\s+/)
          .filter((t) => t !== '')
          .map(Number),
      );
      continue;
    }
    const costLine = /^Cost\s+(\S+)/i.exec(line.trim());
    if (costLine !== null) cost = Number(costLine[1]);
  }
  return { routes, cost };
}

/**
 * Instance family for the per-family mean: Solomon/Homberger C1, C2, R1, R2, RC1, RC2;
 * X by customer count band (X 100–249, X 250–499, X 500–749, X 750–1000).
 */
export function familyOf(name: string): string {
  const x = /^X-n(\d+)-k\d+$/.exec(name);
  if (x !== null) {
    const customers = Number(x[1]) - 1;
    const band = Math.min(3, Math.floor(customers / 250));
    const low = band === 0 ? 100 : band * 250;
    const high = band === 3 ? 1000 : (band + 1) * 250 - 1;
    return `X ${low}-${high}`;
  }
  const vrptw = /^(RC|R|C)(\d)/i.exec(name);
  return vrptw !== null ? `${vrptw[1]!.toUpperCase()}${vrptw[2]}` : 'other';
}
