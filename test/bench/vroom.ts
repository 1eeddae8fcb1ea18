/**
 * VROOM (../shared/peers/vroom) as a benchmark peer for `npm run bench -- --vs vroom`.
 *
 * - `vroomInput` turns a benchmark Problem into VROOM's JSON: custom integer matrices equal to our
 *   own (DIMACS integer tenths = floor(10 × Euclidean) for Solomon/Homberger, with times, windows and
 *   service in the same tenths; rounded integers for CVRP X), one VROOM vehicle per vehicle of the
 *   instance's fleet with its capacity and the depot window, one job per customer.
 * - `runVroom` runs the binary single-threaded (by default) and measures its wall time.
 * - `assessVroom` never trusts VROOM's cost: its routes are re-scheduled on the instance, pushed
 *   through buildPlan and the independent checker exactly like our plans, and re-measured on the
 *   instance's matrix.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Problem } from '../../src/model/problem.js';
import { buildPlan } from '../../src/output/plan.js';
import { checkPlan } from '../support/checker.js';
import { scheduleRoutes } from '../benchmark-formats/schedule-routes.js';
import { repoRoot } from './benchmark-data.js';
import { routeDistanceFromMatrix } from './instance-bench.js';
import { gapPercent, type PeerResult } from './report.js';

export const VROOM_INSTALL_HINT =
  'install its run-time libraries: apt-get install -y libglpk40 libssl3 (see ../shared/peers/vroom/README.md)';

/** `--vroom-bin`, else $ROUTEPLAN_VROOM, else ../shared/peers/vroom/vroom beside the repository root. */
export function defaultVroomBin(): string {
  const fromEnv = process.env['ROUTEPLAN_VROOM'];
  return fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : join(repoRoot(), '..', 'shared', 'peers', 'vroom', 'vroom');
}

/** The binary is missing or cannot start (e.g. missing shared libraries): the message says what to do. */
export class VroomUnavailableError extends Error {}

export interface VroomJob {
  id: number;
  location_index: number;
  service?: number;
  delivery: number[];
  time_windows?: [number, number][];
}

export interface VroomVehicle {
  id: number;
  profile: 'car';
  start_index?: number;
  end_index?: number;
  capacity: number[];
  time_window?: [number, number];
}

export interface VroomInput {
  vehicles: VroomVehicle[];
  jobs: VroomJob[];
  matrices: { car: { durations: number[][]; distances: number[][] } };
}

function integerOrThrow(value: number, what: string): number {
  if (!Number.isInteger(value)) throw new Error(`VROOM needs integers: ${what} is ${value}`);
  return value;
}

function matrixRows(values: ArrayLike<number>, size: number, what: string): number[][] {
  return Array.from({ length: size }, (_, i) =>
    Array.from({ length: size }, (_, j) => integerOrThrow(values[i * size + j]!, `${what}[${i}][${j}]`)),
  );
}

/**
 * VROOM's JSON for a benchmark Problem, in the Problem's own integer units (tenths for DIMACS).
 * Job id = customer number (Stop.index + 1), vehicle id = vehicle index + 1. Our stop windows bound
 * the FINISH of service ([ready, due + service]); VROOM's bound its START, so they become
 * [ready, due]. An unbounded window (CVRP X) is left out. Travel time = the duration matrix of the
 * vehicle's profile, which for benchmarks equals the distance matrix, so VROOM's cost (= duration by
 * default) is our distance objective.
 */
export function vroomInput(problem: Problem): VroomInput {
  const size = problem.travel.size;
  if (problem.travel.durations.length !== 1 || problem.vehicles.some((v) => v.profile !== 0)) {
    throw new Error('the VROOM conversion handles one travel profile only (benchmark instances)');
  }
  const jobs = problem.stops.map((stop): VroomJob => {
    if (stop.location < 0) throw new Error(`stop ${stop.index + 1} has no location`);
    const job: VroomJob = {
      id: stop.index + 1,
      location_index: stop.location,
      delivery: Array.from(stop.load, (amount, d) => integerOrThrow(amount, `stop ${stop.index + 1} load[${d}]`)),
    };
    if (stop.duration > 0) job.service = integerOrThrow(stop.duration, `stop ${stop.index + 1} service`);
    const bounded = stop.windows.filter((w) => w.end !== Infinity || w.start > 0);
    if (bounded.length > 0) {
      job.time_windows = stop.windows.map((w) => [
        integerOrThrow(w.start, `stop ${stop.index + 1} window start`),
        w.end === Infinity ? 2 ** 31 - 1 : integerOrThrow(w.end - stop.duration, `stop ${stop.index + 1} window end`),
      ]);
    }
    return job;
  });
  const vehicles = problem.vehicles.map((vehicle): VroomVehicle => {
    if (vehicle.breaks.length > 0) throw new Error(`vehicle ${vehicle.index + 1} has breaks: not converted to VROOM`);
    const out: VroomVehicle = {
      id: vehicle.index + 1,
      profile: 'car',
      capacity: Array.from(vehicle.capacity, (amount, d) => integerOrThrow(amount, `vehicle ${vehicle.index + 1} capacity[${d}]`)),
    };
    if (vehicle.startLocation >= 0) out.start_index = vehicle.startLocation;
    if (vehicle.endLocation >= 0) out.end_index = vehicle.endLocation;
    if (vehicle.earliestStart > 0 || vehicle.shiftEnd !== Infinity) {
      out.time_window = [
        integerOrThrow(vehicle.earliestStart, `vehicle ${vehicle.index + 1} shift start`),
        vehicle.shiftEnd === Infinity ? 2 ** 31 - 1 : integerOrThrow(vehicle.shiftEnd, `vehicle ${vehicle.index + 1} shift end`),
      ];
    }
    return out;
  });
  const durations = problem.travel.durations[0]!;
  return {
    vehicles,
    jobs,
    matrices: {
      car: { durations: matrixRows(durations, size, 'durations'), distances: matrixRows(problem.travel.distance, size, 'distances') },
    },
  };
}

export interface VroomRunOptions {
  bin: string;
  /** `-x`, 0..5. */
  exploration: number;
  /** `-t`. */
  threads: number;
  /** `-l` in seconds; null = none (VROOM stops when its search at level -x ends). */
  limitSec: number | null;
}

export interface VroomRun {
  /** VROOM's parsed JSON answer. */
  output: unknown;
  /** Wall time of the whole process (reading the JSON, solving, writing the answer), in seconds. */
  wallSec: number;
}

/** Runs VROOM on `input` (written to a temporary file) and parses its answer. */
export async function runVroom(input: VroomInput, options: VroomRunOptions): Promise<VroomRun> {
  const dir = mkdtempSync(join(tmpdir(), 'routeplan-vroom-'));
  try {
    const file = join(dir, 'problem.json');
    writeFileSync(file, JSON.stringify(input));
    const args = ['-i', file, '-t', String(options.threads), '-x', String(options.exploration)];
    if (options.limitSec !== null) args.push('-l', String(options.limitSec));
    const started = performance.now();
    const { code, stdout, stderr } = await execute(options.bin, args);
    const wallSec = (performance.now() - started) / 1000;
    unavailableFromExit(options.bin, code, stderr);
    let output: unknown;
    try {
      output = JSON.parse(stdout);
    } catch {
      throw new Error(`VROOM exited with ${code} without a JSON answer: ${(stderr || stdout).trim().slice(0, 300)}`);
    }
    const answer = output as { code?: number; error?: string };
    if (code !== 0 || answer.code !== 0)
      throw new Error(`VROOM failed (exit ${code}, code ${answer.code}): ${answer.error ?? stderr.trim()}`);
    return { output, wallSec };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `vroom -v`: the version line, or VroomUnavailableError saying what to install. */
export async function vroomVersion(bin: string): Promise<string> {
  const { code, stdout, stderr } = await execute(bin, ['-v']);
  unavailableFromExit(bin, code, stderr);
  if (code !== 0) throw new VroomUnavailableError(`${bin} -v exited with ${code}: ${stderr.trim()}`);
  return stdout.trim();
}

function unavailableFromExit(bin: string, code: number, stderr: string): void {
  if (code === 127 || /error while loading shared libraries/.test(stderr)) {
    throw new VroomUnavailableError(`VROOM at ${bin} cannot run: ${stderr.trim()}\n${VROOM_INSTALL_HINT}`);
  }
}

function execute(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'ENOENT' ? 'not found' : error.code === 'EACCES' ? 'not executable' : error.message;
      reject(
        new VroomUnavailableError(
          `VROOM binary ${bin}: ${why} (give --vroom-bin <path> or set ROUTEPLAN_VROOM; it is a prebuilt peer, see ../shared/peers/vroom/README.md; on a fresh machine ${VROOM_INSTALL_HINT})`,
        ),
      );
    });
    child.on('close', (code, signal) =>
      resolvePromise({
        code: code ?? (signal === null ? -1 : 128),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8') + (signal === null ? '' : ` (killed by ${signal})`),
      }),
    );
  });
}

/** VROOM's routes as customer numbers per vehicle index, its unassigned job ids and its own cost. */
export interface VroomSolution {
  routes: { vehicle: number; customers: number[] }[];
  unassigned: number[];
  /** summary.cost in the input's integer units: VROOM's claim, for reference only. */
  reportedCost: number | null;
  /** summary.computing_times.solving in seconds, when given. */
  solvingSec: number | null;
}

/** Reads the parts of VROOM's answer the bench uses; throws on a malformed answer. */
export function parseVroomOutput(output: unknown): VroomSolution {
  const answer = output as {
    routes?: { vehicle?: number; steps?: { type?: string; id?: number; job?: number }[] }[];
    unassigned?: { id?: number }[];
    summary?: { cost?: number; computing_times?: { solving?: number } };
  };
  if (answer === null || typeof answer !== 'object' || !Array.isArray(answer.routes)) throw new Error('VROOM answer has no routes array');
  const routes = answer.routes.map((route, r) => {
    if (typeof route.vehicle !== 'number') throw new Error(`VROOM route ${r + 1} has no vehicle id`);
    const customers = (route.steps ?? [])
      .filter((step) => step.type === 'job')
      .map((step) => {
        const id = step.id ?? step.job;
        if (typeof id !== 'number') throw new Error(`VROOM route ${r + 1} has a job step without an id`);
        return id;
      });
    return { vehicle: route.vehicle - 1, customers };
  });
  const solving = answer.summary?.computing_times?.solving;
  return {
    routes: routes.filter((route) => route.customers.length > 0),
    unassigned: (answer.unassigned ?? []).map((u) => u.id ?? NaN),
    reportedCost: typeof answer.summary?.cost === 'number' ? answer.summary.cost : null,
    solvingSec: typeof solving === 'number' ? solving / 1000 : null,
  };
}

export interface VroomAssessment {
  /** Our re-measured distance in the instance's own units. */
  cost: number;
  routes: number;
  /** Customers on no route (VROOM's unassigned and any it silently dropped). */
  unserved: number;
  /** Findings: unknown ids, the checker's findings (windows, capacity, double service, depot return). */
  problems: string[];
  /** Informational: VROOM's own cost differs from our re-measurement. */
  notes: string[];
}

/**
 * Independent check of VROOM's routes on the instance: ids must be known customers and vehicles;
 * the routes are scheduled (earliest service, arrival = max(previous departure + travel, window
 * start)) with the same helper the best-known routes use, built into a plan and run through the
 * checker (every customer at most once, windows, capacity, return to the depot by its due time);
 * the distance is re-measured on the instance's own matrix.
 */
export function assessVroom(problem: Problem, solution: VroomSolution): VroomAssessment {
  const problems: string[] = [];
  const notes: string[] = [];
  const customers = problem.stops.length;
  const usedVehicles = new Set<number>();
  const routes: number[][] = [];
  const vehicles: number[] = [];
  for (const route of [...solution.routes].sort((a, b) => a.vehicle - b.vehicle)) {
    if (!Number.isInteger(route.vehicle) || route.vehicle < 0 || route.vehicle >= problem.vehicles.length) {
      problems.push(`VROOM uses unknown vehicle id ${route.vehicle + 1}`);
      continue;
    }
    if (usedVehicles.has(route.vehicle)) problems.push(`VROOM uses vehicle ${route.vehicle + 1} for two routes`);
    usedVehicles.add(route.vehicle);
    const known = route.customers.filter((c) => Number.isInteger(c) && c >= 1 && c <= customers);
    for (const c of route.customers)
      if (!known.includes(c)) problems.push(`VROOM route of vehicle ${route.vehicle + 1} visits unknown job ${c}`);
    if (known.length === 0) continue;
    routes.push(known);
    vehicles.push(route.vehicle);
  }
  const served = new Set(routes.flat());
  const missing = problem.stops.filter((s) => !served.has(s.index + 1));
  const unassigned = new Set(solution.unassigned);
  const silent = missing.filter((s) => !unassigned.has(s.index + 1));
  if (silent.length > 0) {
    problems.push(`VROOM neither routes nor lists as unassigned customer(s) ${silent.map((s) => s.index + 1).join(', ')}`);
  }
  const result = scheduleRoutes(problem, routes, vehicles);
  result.unserved = missing.map((s) => ({
    stop: s.index,
    reason: 'dropped_for_capacity_or_time',
    message: 'unassigned by VROOM',
    hints: [],
  }));
  problems.push(...checkPlan(problem, buildPlan(problem, result), { checkReasons: false }));
  const distance = routeDistanceFromMatrix(problem, result);
  if (solution.reportedCost !== null && solution.reportedCost !== distance) {
    notes.push(`VROOM reports cost ${solution.reportedCost} but its routes measure ${distance} on the instance's matrix`);
  }
  return { cost: distance / problem.units.distancePerReported, routes: routes.length, unserved: missing.length, problems, notes };
}

/** Runs VROOM on one instance and assesses its plan into the bench's per-instance VROOM columns. */
export async function benchVroom(problem: Problem, bks: number | null, options: VroomRunOptions): Promise<PeerResult> {
  const base = { exploration: options.exploration, limitSec: options.limitSec };
  const started = performance.now();
  let run: VroomRun;
  try {
    run = await runVroom(vroomInput(problem), options);
  } catch (error) {
    if (error instanceof VroomUnavailableError) throw error;
    return failed(base, error, (performance.now() - started) / 1000);
  }
  try {
    const solution = parseVroomOutput(run.output);
    const assessed = assessVroom(problem, solution);
    return {
      ...base,
      cost: assessed.cost,
      gapPct: bks === null ? null : gapPercent(assessed.cost, bks),
      routes: assessed.routes,
      timeSec: run.wallSec,
      solvingSec: solution.solvingSec,
      reportedCost: solution.reportedCost,
      feasible: assessed.problems.length === 0,
      unserved: assessed.unserved,
      problems: assessed.problems,
      notes: assessed.notes,
      error: null,
    };
  } catch (error) {
    return failed(base, error, run.wallSec);
  }
}

function failed(base: Pick<PeerResult, 'exploration' | 'limitSec'>, error: unknown, timeSec: number): PeerResult {
  const message = error instanceof Error ? error.message : String(error);
  return {
    ...base,
    cost: null,
    gapPct: null,
    routes: null,
    timeSec,
    solvingSec: null,
    reportedCost: null,
    feasible: false,
    unserved: null,
    problems: [message],
    notes: [],
    error: message,
  };
}
