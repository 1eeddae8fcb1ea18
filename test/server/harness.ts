/** In-process service for API tests: the real server and store, with a scripted solve runner. */
import { afterEach, expect } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServeOptions } from '../../src/server/index.js';
import type { SolveRunner } from '../../src/server/services/solve-runner.js';
import { JobAbortedError } from '../../src/server/services/solve-runner.js';
import type { SolveJob, SolveOutcome } from '../../src/server/services/job.js';
import type { Plan } from '../../src/output/plan-types.js';
import type { SolveProgress } from '../../src/solver/types.js';
import { AnswerRecorder } from '../support/openapi-answers.js';

/**
 * Every answer of the services these tests start is held to the OpenAPI document
 * (test/support/openapi-answers.ts): after each test, each JSON body recorded must match the
 * document's schema for its route and status, so the document describes what the service answers.
 */
export const answerRecorder = new AnswerRecorder();
afterEach(() => {
  expect(answerRecorder.takeProblems(), 'answers that do not match the OpenAPI document').toEqual([]);
});

export function cannedPlan(marker: string): Plan {
  return {
    version: 1,
    summary: {
      routes_used: 0,
      served: 0,
      unserved: 0,
      priority_served: 0,
      distance_m: 0,
      driving_s: 0,
      service_s: 0,
      waiting_s: 0,
      break_s: 0,
      working_s: 0,
      lateness_s: 0,
      overtime_s: 0,
    },
    routes: [],
    unserved: [{ stop: marker, stop_index: 0, reason: 'missing_location', message: marker }],
  };
}

/**
 * Jobs wait until the test releases them (or answer at once with `instant`), so the tests
 * decide every ordering themselves instead of relying on timing.
 */
export class ScriptedRunner implements SolveRunner {
  readonly started: SolveJob[] = [];
  /** Jobs whose signal aborted (a cancel or a shutdown): they stopped running. */
  readonly aborted: SolveJob[] = [];
  private readonly pending: { resolve: (outcome: SolveOutcome) => void; onProgress?: (progress: SolveProgress) => void }[] = [];
  private readonly startWaiters: (() => void)[] = [];

  constructor(private readonly instant: SolveOutcome | null = null) {}

  run(job: SolveJob, signal: AbortSignal, onProgress?: (progress: SolveProgress) => void): Promise<SolveOutcome> {
    this.started.push(job);
    for (const waiter of this.startWaiters.splice(0)) waiter();
    if (this.instant) return Promise.resolve(this.instant);
    return new Promise((resolve, reject) => {
      const entry = { resolve, ...(onProgress ? { onProgress } : {}) };
      this.pending.push(entry);
      signal.addEventListener(
        'abort',
        () => {
          const at = this.pending.indexOf(entry);
          if (at === -1) return; // it had already ended
          this.pending.splice(at, 1);
          this.aborted.push(job);
          reject(new JobAbortedError());
        },
        { once: true },
      );
    });
  }

  /** The oldest running job reports `progress`, as the solver does now and then. */
  reportProgress(progress: SolveProgress): void {
    const next = this.pending[0];
    if (!next) throw new Error('no job is running');
    next.onProgress?.(progress);
  }

  /** Ends the oldest running job with `outcome`. */
  finishNext(outcome: SolveOutcome): void {
    const next = this.pending.shift();
    if (!next) throw new Error('no job is running');
    next.resolve(outcome);
  }

  get running(): number {
    return this.pending.length;
  }

  /** Resolves once `count` jobs have started. */
  async waitForStarts(count: number): Promise<void> {
    while (this.started.length < count) await new Promise<void>((resolve) => this.startWaiters.push(resolve));
  }
}

export interface TestService {
  url: string;
  running: RunningServer;
  logs: string[];
  dataDir: string;
  runner: ScriptedRunner;
  stop(): Promise<void>;
}

export async function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'routeplan-serve-'));
}

export async function startTestService(options: Partial<ServeOptions> & { runner?: ScriptedRunner } = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? (await makeDataDir());
  const runner = options.runner ?? new ScriptedRunner();
  const logs: string[] = [];
  const running = await startServer({
    port: 0,
    host: '127.0.0.1',
    keys: ['key-alpha', 'key-beta'],
    concurrency: 1,
    queueSize: 10,
    timeLimitMs: 500,
    seed: 0,
    bodyLimitBytes: 1024 * 1024,
    shutdownTimeoutMs: 100,
    httpTap: answerRecorder.tap,
    ...options,
    dataDir,
    runner,
    logLine: (line) => logs.push(line),
  });
  return {
    url: running.url,
    running,
    logs,
    dataDir,
    runner,
    stop: async () => {
      await running.close();
    },
  };
}

type TestServiceOptions = Parameters<typeof startTestService>[0];

/**
 * A starter for the services of a test file: each one is stopped and its data directory removed
 * after the test that started it. `defaults` (read when a service starts, so it may name what a
 * beforeAll made) lie under each call's own options.
 */
export function servicesStoppedAfterEach(
  defaults: () => TestServiceOptions = () => ({}),
): (options?: TestServiceOptions) => Promise<TestService> {
  const services: TestService[] = [];
  afterEach(async () => {
    for (const started of services.splice(0)) {
      await started.stop();
      await removeDir(started.dataDir);
    }
  });
  return async (options = {}) => {
    const started = await startTestService({ ...defaults(), ...options });
    services.push(started);
    return started;
  };
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export interface ApiReply {
  status: number;
  headers: Headers;
  body: any;
}

export async function api(
  base: string,
  method: string,
  path: string,
  options: { key?: string | null; scheme?: string; body?: unknown; rawBody?: string; contentType?: string } = {},
): Promise<ApiReply> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? 'key-alpha' : options.key;
  if (key !== null) headers.authorization = `${options.scheme ?? 'Bearer'} ${key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined || options.body !== undefined) {
    body = options.rawBody ?? JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  const response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left as text
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** A small valid one-off problem (Lyon). */
export function smallOneOff(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    routesData: [
      {
        name: 'van 1',
        constraints: { startTime: '08:00', endTime: '17:00', capacity: 10, startLocations: [{ latitude: 45.76, longitude: 4.83 }] },
      },
    ],
    ordersData: [
      { name: 'o1', locations: [{ latitude: 45.77, longitude: 4.84 }], duration: 5, load: 1 },
      {
        name: 'o2',
        locations: [{ latitude: 45.75, longitude: 4.85 }],
        duration: 5,
        timeWindows: [{ startTime: '09:00', endTime: '12:00' }],
      },
    ],
    options: {},
    ...extra,
  };
}

/** A small valid project (Lyon). */
export function smallProject(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Morning rounds',
    date: '2026-11-23',
    drivers: [{ name: 'Ana', start_location: { coords: { lat: 45.76, lng: 4.83 } }, shift_start: '08:00', shift_end: '17:00' }],
    stops: [
      { name: 'Bakery', location: { coords: { lat: 45.77, lng: 4.84 } }, duration: 5 },
      { name: 'Cafe', location: { coords: { lat: 45.75, lng: 4.85 } }, duration: 5, start: '09:00', end: '12:00' },
    ],
    settings: {},
    ...extra,
  };
}
