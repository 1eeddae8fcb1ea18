/**
 * The live day over HTTP (decisions.md, "The live day"): a driver's shared position and the
 * estimates re-timed after each report, kept in the dispatch record of either store — on
 * PostgreSQL a report made on one process is read with its new times on another. The real
 * solver runs in process, so the dispatched plans fit their projects (checked by the checker).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { checkPlan } from '../support/checker.js';
import { freshDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres.js';
import { InProcessRunner, optimizedProject, tokenOf, twoDriverProject } from './dispatch-harness.js';
import { api, removeDir, startTestService, type TestService } from './harness.js';

const CLOCK = new Date('2026-11-23T11:00:00Z');
let clock = CLOCK;
const services: TestService[] = [];

async function service(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const started = await startTestService({ now: () => clock, ...options });
  services.push(started);
  return started;
}

afterEach(async () => {
  clock = CLOCK;
  for (const started of services.splice(0)) {
    await started.stop();
    await removeDir(started.dataDir);
  }
});

/** The two-driver project on UTC's clock, optimized (its plan checked) and dispatched; Ana's link and her stops in order. */
async function dispatchedDay(svc: TestService): Promise<{ id: string; token: string; stops: any[] }> {
  const document = { ...twoDriverProject(), settings: { time_zone: 'UTC' } };
  const { id, actionUuid } = await optimizedProject(svc, document);
  const plan = (await api(svc.url, 'GET', `/v2/schedules/${actionUuid}/solution`)).body;
  expect(checkPlan(loadProblemDocument(document).problem, plan)).toEqual([]);
  const dispatched = await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: {} });
  expect(dispatched.status).toBe(201);
  const ana = dispatched.body.drivers.find((driver: any) => driver.driver_name === 'Ana');
  const stops = dispatched.body.stops.filter((stop: any) => stop.driver_id === ana.driver_id);
  expect(stops.length).toBeGreaterThanOrEqual(2);
  expect(stops.every((stop: any) => stop.eta_s === undefined && typeof stop.arrival_s === 'number')).toBe(true);
  return { id, token: tokenOf(ana.url), stops };
}

/** The instant `seconds` into the project's day, on UTC's clock. */
function instant(seconds: number): string {
  return new Date(Date.parse('2026-11-23T00:00:00Z') + seconds * 1000).toISOString();
}

/** Ana reports her first stop done 40 minutes after its planned finish, on `reporter`; `reader` then shows her second stop 40 minutes later. */
async function lateReport(reporter: TestService, reader: TestService, day: { id: string; token: string; stops: any[] }): Promise<void> {
  const [first, second] = day.stops;
  const finish = first.arrival_s + 600;
  const reported = await api(reporter.url, 'POST', `/drivers/${day.token}/stops/${first.stop_id}`, {
    key: null,
    body: { status: 'done', at: instant(finish + 2400) },
  });
  expect(reported.status).toBe(200);
  const seen = (await api(reader.url, 'GET', `/v1.0/project/${day.id}`)).body.dispatch.stops;
  const next = seen.find((stop: any) => stop.stop_id === second.stop_id);
  expect(next.eta_s).toBe(second.arrival_s + 2400);
  expect(next.late).toBe(false);
  const route = (await api(reader.url, 'GET', `/drivers/${day.token}/route`, { key: null })).body;
  expect(route.stops.find((stop: any) => stop.stop_id === second.stop_id).eta_s).toBe(second.arrival_s + 2400);
  expect(route.position).toBeUndefined();
}

describe('live estimates and positions (data directory)', () => {
  it('a report 40 min late re-times the rest of the route, for the dispatcher and on the driver page', async () => {
    const svc = await service({ runner: new InProcessRunner() as never });
    await lateReport(svc, svc, await dispatchedDay(svc));
  });

  it('a shared position is shown to the dispatcher with its time, re-times the route, and an older one changes nothing', async () => {
    const svc = await service({ runner: new InProcessRunner() as never });
    const day = await dispatchedDay(svc);
    clock = new Date('2026-11-23T11:52:00Z');
    const at = '2026-11-23T11:50:00.000Z';
    const shared = await api(svc.url, 'POST', `/drivers/${day.token}/position`, {
      key: null,
      body: { lat: 45.76, lng: 4.83, at, accuracy_m: 8 },
    });
    expect(shared.status).toBe(200);
    expect(shared.body).toEqual({ position: { lat: 45.76, lng: 4.83, at, accuracy_m: 8 }, kept: true });
    const older = await api(svc.url, 'POST', `/drivers/${day.token}/position`, {
      key: null,
      body: { lat: 1, lng: 1, at: '2026-11-23T11:45:00Z' },
    });
    expect(older.body).toEqual({ position: shared.body.position, kept: false });
    const dispatch = (await api(svc.url, 'GET', `/v1.0/project/${day.id}/dispatch`)).body;
    expect(dispatch.drivers.find((driver: any) => driver.driver_name === 'Ana').position).toEqual(shared.body.position);
    expect(dispatch.drivers.find((driver: any) => driver.driver_name === 'Ben').position).toBeUndefined();
    // From the depot at 11:50 with nothing done: every stop is reached later than planned (the plan left at 08:00)…
    const mine = dispatch.stops.filter((stop: any) => day.stops.some((own) => own.stop_id === stop.stop_id));
    expect(mine.every((stop: any) => stop.eta_s > stop.arrival_s + 3 * 3600)).toBe(true);
    // …and Ana's shift ends at 12:00: her last stop cannot be finished by then.
    expect(mine.at(-1).eta_s + 600).toBeGreaterThan(12 * 3600);
    expect(mine.at(-1).late).toBe(true);
  });

  it('refuses a bad position with 400 and its paths, an unknown link with 404 and a withdrawn one with 410', async () => {
    const svc = await service({ runner: new InProcessRunner() as never });
    const day = await dispatchedDay(svc);
    const bad = await api(svc.url, 'POST', `/drivers/${day.token}/position`, { key: null, body: { lat: 100, lng: 4.8 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((detail: any) => detail.path)).toEqual(['lat', 'at']);
    const unknown = await api(svc.url, 'POST', `/drivers/${'x'.repeat(32)}/position`, {
      key: null,
      body: { lat: 1, lng: 1, at: CLOCK.toISOString() },
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'link_not_found']);
    const ana = (await api(svc.url, 'GET', `/v1.0/project/${day.id}/dispatch`)).body.drivers.find(
      (driver: any) => driver.driver_name === 'Ana',
    );
    await api(svc.url, 'POST', `/v1.0/project/${day.id}/dispatch/drivers/${ana.driver_id}/revoke`);
    const revoked = await api(svc.url, 'POST', `/drivers/${day.token}/position`, {
      key: null,
      body: { lat: 1, lng: 1, at: CLOCK.toISOString() },
    });
    expect([revoked.status, revoked.body.error.code]).toEqual([410, 'link_revoked']);
  });
});

describe.skipIf(postgresUnavailable())('live estimates on PostgreSQL', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    for (const started of services.splice(0)) {
      await started.stop();
      await removeDir(started.dataDir);
    }
    await db.drop();
  });

  it('a report made on one process is read with its new times on the other', async () => {
    const a = await service({ database: db.url, runner: new InProcessRunner() as never });
    const b = await service({ database: db.url, role: 'api' });
    await lateReport(b, a, await dispatchedDay(a));
  });
});
