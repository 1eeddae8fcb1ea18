/**
 * The dispatch's live estimates with their I/O (dispatch/service.ts + retimer.ts): the project read
 * from the real data-directory store, the route's travel from the project's travel source (a local
 * OSRM speaking its documented /table protocol) or, when that fails, straight-line speed (logged);
 * `etaChanged` told for the stops that moved; positions closer than 30 s kept without re-timing.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { haversineMetres } from '../../src/model/travel.js';
import type { EtaChangedEvent } from '../../src/server/services/dispatch/events.js';
import { freezePlan } from '../../src/server/services/dispatch/frozen.js';
import { ProofFiles } from '../../src/server/services/dispatch/proof.js';
import { ProjectRetimer } from '../../src/server/services/dispatch/retimer.js';
import { DispatchService } from '../../src/server/services/dispatch/service.js';
import { ProjectService } from '../../src/server/services/projects.js';
import type { Stores } from '../../src/server/store/ports.js';
import { openStores } from '../../src/server/store/open.js';
import type { LoadOptions } from '../../src/input/index.js';
import { checkedPlanOf } from '../support/checked-plan.js';
import { fakeOsrm, type FakeRouting } from '../support/fake-routing.js';
import { removeDir } from './harness.js';

const DEPOT = { lat: 45.75, lng: 4.85 };
const DOCUMENT = {
  name: 'Live day',
  date: '2026-11-23',
  settings: { time_zone: 'UTC', strict_start: true },
  drivers: [{ name: 'Ana', start_location: { coords: DEPOT }, shift_start: '08:00', shift_end: '12:00' }],
  stops: ['A', 'B', 'C'].map((name, index) => ({
    name,
    location: { coords: { lat: 45.75, lng: 4.86 + index * 0.01 } },
    duration: 10,
    driver: 'Ana',
    sequence: index + 1,
  })),
};

const opened: { stores: Stores; dir: string }[] = [];
const fakes: FakeRouting[] = [];

afterEach(async () => {
  for (const { stores, dir } of opened.splice(0)) {
    await stores.queue.stop(0);
    await stores.close();
    await removeDir(dir);
  }
  for (const fake of fakes.splice(0)) await fake.close().catch(() => undefined);
});

/** A dispatched day in a real data directory, and the dispatch service over it with the real retimer. */
async function dispatchedDay(travel: LoadOptions = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'routeplan-eta-'));
  const base = { port: 0, host: '127.0.0.1', keys: [], concurrency: 1, queueSize: 10, timeLimitMs: 1_000, seed: 1 };
  const stores = await openStores({ ...base, dataDir: dir, bodyLimitBytes: 1_000_000, shutdownTimeoutMs: 1_000 }, () => undefined);
  await stores.start();
  opened.push({ stores, dir });
  const noOptimizations = { of: () => Promise.resolve([]), latestOfEach: () => Promise.resolve(new Map()) };
  const projects = new ProjectService(stores.projects, (id) => `http://x/projects/${id}`, noOptimizations);
  const project = await projects.create('owner', DOCUMENT, []);
  const plan = await checkedPlanOf(DOCUMENT);
  const frame = {
    actionUuid: 'a1',
    dispatchedAt: '2026-11-23T07:00:00Z',
    expiresAt: '2026-11-25T00:00:00Z',
    newToken: () => 'token-ana',
    etaMarginS: 1800,
  };
  const frozen = freezePlan('owner', project, plan, frame, null);
  await stores.records.write('dispatches', project.id, frozen);
  const events: EtaChangedEvent[] = [];
  const logs: Record<string, unknown>[] = [];
  const log = (event: Record<string, unknown>): void => void logs.push(event);
  const listener = {
    dispatched: () => undefined,
    stopDone: () => undefined,
    etaChanged: (event: EtaChangedEvent) => void events.push(event),
  };
  const settings = {
    graceMs: 0,
    now: () => new Date('2026-11-23T10:00:00Z'),
    linkUrl: (t: string) => t,
    trackingUrl: (t: string) => t,
    etaMarginS: 1800,
    log,
    proofSetting: () => Promise.resolve('none' as const),
  };
  // Reports and positions never reach the actions (optimizations): only dispatching does.
  const dispatch = new DispatchService(
    stores.records,
    undefined as never,
    listener,
    {
      ...settings,
      retimer: new ProjectRetimer(projects, travel, log),
    },
    new ProofFiles(stores.blobs),
  );
  await dispatch.recover();
  const stopIds = frozen.stops.map((stop) => stop.stop_id);
  return { dispatch, events, logs, stopIds, planned: frozen.stops, read: () => dispatch.routeOf('token-ana') };
}

describe('live estimates in the dispatch service', () => {
  it('tells etaChanged the stops that moved, and re-times from a position only 30 s after the report the estimates come from', async () => {
    const day = await dispatchedDay();
    await day.dispatch.sharePosition('token-ana', { ...DEPOT, at: '2026-11-23T08:20:00Z' });
    expect(day.events).toHaveLength(1);
    const plannedArrival = (name: string): number => day.planned.find((stop) => stop.name === name)!.arrival_s!;
    expect(day.events[0]!.stops.map((entry) => [entry.stop.name, entry.eta_s - plannedArrival(entry.stop.name)])).toEqual([
      ['A', 1200],
      ['B', 1200],
      ['C', 1200],
    ]);
    // 20 s later: kept for the dispatcher, but the estimates stay those of 08:20.
    const kept = await day.dispatch.sharePosition('token-ana', { ...DEPOT, at: '2026-11-23T08:20:20Z' });
    expect(kept.kept).toBe(true);
    expect(day.events).toHaveLength(1);
    expect((await day.read()).stops[0]!.eta_s).toBe(day.planned[0]!.arrival_s! + 1200);
    // Done at A 30 min after its planned finish: B and C move from 20 to 30 minutes behind plan.
    await day.dispatch.report('token-ana', day.stopIds[0]!, { status: 'done', at: instant(day.planned[0]!.finish_s! + 1800) });
    expect(day.events).toHaveLength(2);
    expect(day.events[1]!.stops.map((entry) => [entry.stop.name, entry.eta_s, entry.late])).toEqual([
      ['B', day.planned[1]!.arrival_s! + 1800, false],
      ['C', day.planned[2]!.arrival_s! + 1800, false],
    ]);
    // A position older than the last one changes nothing at all.
    expect(await day.dispatch.sharePosition('token-ana', { ...DEPOT, at: '2026-11-23T08:00:00Z' })).toMatchObject({ kept: false });
    expect(day.events).toHaveLength(2);
  });

  it('times the leg from a position with the project’s travel source (OSRM), one small table for the one route', async () => {
    const osrm = await fakeOsrm();
    fakes.push(osrm);
    const day = await dispatchedDay({ travel: { source: 'osrm', url: osrm.url, cache: false } });
    const here = { lat: 45.74, lng: 4.855 };
    await day.dispatch.sharePosition('token-ana', { ...here, at: '2026-11-23T09:00:00Z' });
    expect(osrm.requests).toHaveLength(1);
    const first = (await day.read()).stops[0]!;
    const metres = Math.round(haversineMetres(here, { lat: first.lat, lng: first.lng }) * 1.2);
    expect(first.eta_s).toBe(9 * 3600 + Math.round(metres / 10));
    expect(day.logs.filter((event) => event.event === 'eta_travel_fallback')).toEqual([]);
  });

  it('falls back to straight-line speed when the travel source fails, and says so in the log', async () => {
    const osrm = await fakeOsrm();
    await osrm.close();
    const day = await dispatchedDay({ travel: { source: 'osrm', url: osrm.url, cache: false } });
    await day.dispatch.sharePosition('token-ana', { ...DEPOT, at: '2026-11-23T09:00:00Z' });
    expect((await day.read()).stops[0]!.eta_s).toBe(day.planned[0]!.arrival_s! + 3600);
    expect(day.logs.filter((event) => event.event === 'eta_travel_fallback')).toHaveLength(1);
    expect(day.logs.filter((event) => event.event === 'eta_failed')).toEqual([]);
  });
});

function instant(seconds: number): string {
  return new Date(Date.parse('2026-11-23T00:00:00Z') + seconds * 1000).toISOString();
}
