/**
 * Tracking links (decisions.md, "The live day") from the real service and store: each dispatched
 * stop's token opens that one stop's status and nothing of any other customer; a driver's token, an
 * unknown one, an expired one and one whose stop a re-dispatch dropped are refused; the page carries
 * the driver page's headers; tokens survive a restart and never reach the log.
 */
import { describe, expect, it } from 'vitest';
import { api, servicesStoppedAfterEach, type TestService } from './harness.js';
import { InProcessRunner, optimize, optimizedProject, tokenOf, twoDriverProject } from './dispatch-harness.js';
import { trackingView } from '../../src/server/services/dispatch/tracking.js';

let clock = new Date('2026-11-23T07:00:00Z');
const start = servicesStoppedAfterEach(() => ({ runner: new InProcessRunner() as never, now: () => clock }));

const STATUS_KEYS = ['at', 'eta_s', 'name', 'project', 'promised', 'status', 'stops_before'];

interface Dispatched {
  svc: TestService;
  id: string;
  view: any;
  plan: any;
  stopIds: Map<string, string>;
}

async function dispatched(document = twoDriverProject()): Promise<Dispatched> {
  clock = new Date('2026-11-23T07:00:00Z');
  const svc = await start();
  const { id } = await optimizedProject(svc, document);
  const reply = await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`);
  expect(reply.status).toBe(201);
  const plan = (await api(svc.url, 'GET', `/v1.0/project/${id}/dispatch/solution`)).body;
  const project = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body;
  return { svc, id, view: reply.body, plan, stopIds: new Map(project.stops.map((stop: any) => [stop.id, stop.name])) };
}

function trackingToken(url: string): string {
  return url.split('/track/')[1]!;
}

async function status(svc: TestService, token: string): Promise<{ status: number; body: any; headers: Headers }> {
  return api(svc.url, 'GET', `/track/${token}/status`, { key: null });
}

describe('tracking links', () => {
  it('open each stop’s own status: its name, the project, the promise, the planned arrival and the stops before it, nothing else', async () => {
    const { svc, view, plan, stopIds } = await dispatched();
    const visits = plan.routes.flatMap((route: any) => route.visits.filter((visit: any) => visit.kind === 'stop'));
    expect(view.stops).toHaveLength(4);
    for (const stop of view.stops) {
      expect(stop.tracking_url).toMatch(new RegExp(`^${svc.url}/track/[A-Za-z0-9_-]{32}$`));
      const name = stopIds.get(stop.stop_id)!;
      const visit = visits.find((entry: any) => entry.stop === name);
      const sameRoute = view.stops.filter((other: any) => other.driver_id === stop.driver_id);
      const reply = await status(svc, trackingToken(stop.tracking_url));
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body).sort()).toEqual(STATUS_KEYS);
      expect(reply.body).toEqual({
        name,
        project: { name: 'Morning rounds', date: '2026-11-23' },
        status: 'planned',
        at: null,
        promised: stop.promised,
        eta_s: visit.arrival_s,
        stops_before: sameRoute.indexOf(stop),
      });
      expect(stop.promised.start_s % 900).toBe(0);
      expect(stop.promised.end_s % 900).toBe(0);
      expect(stop.promised.start_s).toBeLessThanOrEqual(visit.arrival_s - 1800);
      expect(stop.promised.end_s).toBeGreaterThanOrEqual(visit.arrival_s + 1800);
      const text = JSON.stringify(reply.body);
      for (const other of [...stopIds.values()].filter((entry) => entry !== name)) expect(text).not.toContain(other);
      for (const secret of ['street', '+33', '@', 'Ring twice', 'door', 'Ana', 'Ben', '45.', '4.8']) expect(text).not.toContain(secret);
      expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
      expect(reply.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(reply.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('follow the driver’s reports: done with its time, failed in words for the customer (never the driver’s), fewer stops before', async () => {
    const { svc, view } = await dispatched();
    const driver = view.drivers.find((entry: any) => entry.stops === 2) ?? view.drivers[0];
    const [first, second] = view.stops.filter((stop: any) => stop.driver_id === driver.driver_id);
    const report = (stopId: string, body: unknown): ReturnType<typeof api> =>
      api(svc.url, 'POST', `/drivers/${tokenOf(driver.url)}/stops/${stopId}`, { key: null, body });
    expect((await status(svc, trackingToken(second.tracking_url))).body.stops_before).toBe(1);
    await report(first.stop_id, { status: 'done', at: '2026-11-23T06:41:00Z' });
    const done = (await status(svc, trackingToken(first.tracking_url))).body;
    expect(done).toMatchObject({ status: 'done', at: '2026-11-23T06:41:00.000Z', eta_s: null, stops_before: 0 });
    expect((await status(svc, trackingToken(second.tracking_url))).body.stops_before).toBe(0);
    await report(second.stop_id, { status: 'failed', reason: 'Dog in the yard, customer was rude' });
    const failed = (await status(svc, trackingToken(second.tracking_url))).body;
    expect(Object.keys(failed).sort()).toEqual([...STATUS_KEYS, 'failure'].sort());
    expect(failed).toMatchObject({ status: 'failed', failure: 'The delivery could not be made.', eta_s: null });
    expect(JSON.stringify(failed)).not.toContain('rude');
  });

  it('refuse an unknown token, a malformed one and a driver’s token (404), and another project’s token shows only its own stop', async () => {
    const first = await dispatched();
    const svc = first.svc;
    const other = await optimizedProject(svc, twoDriverProject());
    await api(svc.url, 'POST', `/v1.0/project/${other.id}/dispatch`);
    const otherView = (await api(svc.url, 'GET', `/v1.0/project/${other.id}/dispatch`)).body;
    for (const token of ['A'.repeat(32), 'not.a.token', tokenOf(first.view.drivers[0].url)]) {
      const reply = await status(svc, token);
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toMatch(/not_found/);
    }
    const mine = trackingToken(first.view.stops[0].tracking_url);
    const theirs = trackingToken(otherView.stops[0].tracking_url);
    expect(mine).not.toBe(theirs);
    expect((await status(svc, theirs)).body.project).toEqual({ name: 'Morning rounds', date: '2026-11-23' });
    expect((await status(svc, theirs)).body.promised).toEqual(otherView.stops[0].promised);
    expect(JSON.stringify((await status(svc, mine)).body)).not.toContain(String(otherView.stops[0].stop_id));
  });

  it('expire with the dispatch (410 link_expired), page and status alike', async () => {
    const { svc, view } = await dispatched();
    const token = trackingToken(view.stops[0].tracking_url);
    const expiresAt = Date.parse(view.drivers[0].expires_at);
    clock = new Date(expiresAt - 1_000);
    expect((await status(svc, token)).status).toBe(200);
    clock = new Date(expiresAt + 1_000);
    const expired = await status(svc, token);
    expect([expired.status, expired.body.error.code]).toEqual([410, 'link_expired']);
    expect((await fetch(`${svc.url}/track/${token}`)).status).toBe(410);
  });

  it('keep their token through a re-dispatch and a restart; a stop the re-dispatch dropped answers 410 link_revoked', async () => {
    const { svc, id, view, stopIds } = await dispatched();
    const dropped = view.stops.find((stop: any) => stopIds.get(stop.stop_id) === 'South cafe');
    expect((await api(svc.url, 'DELETE', `/v1.0/project/${id}/stops/${dropped.stop_id}`)).status).toBe(200);
    await optimize(svc, id);
    const again = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: { redispatch: true } })).body;
    expect(again.stops).toHaveLength(3);
    for (const stop of again.stops) {
      expect(stop.tracking_url).toBe(view.stops.find((before: any) => before.stop_id === stop.stop_id).tracking_url);
    }
    const gone = await status(svc, trackingToken(dropped.tracking_url));
    expect([gone.status, gone.body.error.code]).toEqual([410, 'link_revoked']);
    await svc.stop();
    const restarted = await start({ dataDir: svc.dataDir });
    expect((await status(restarted, trackingToken(again.stops[0].tracking_url))).status).toBe(200);
    expect((await status(restarted, trackingToken(dropped.tracking_url))).status).toBe(410);
  });

  it('serve the tracking page without sign-in, with the driver page’s headers, and never write a token to the log', async () => {
    const { svc, view } = await dispatched();
    const token = trackingToken(view.stops[0].tracking_url);
    const page = await fetch(`${svc.url}/track/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('/assets/track.js');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect((await fetch(`${svc.url}/track/${'B'.repeat(32)}`)).status).toBe(404);
    expect(svc.logs.join('\n')).not.toContain(token);
    expect(svc.logs.some((line) => line.includes('/track/<redacted>/status') || line.includes('/track/<redacted>'))).toBe(true);
  });
});

describe('trackingView', () => {
  const stop = (id: string, driver: string, extra: Record<string, unknown> = {}): any => ({
    stop_id: id,
    driver_id: driver,
    name: `Customer ${id}`,
    address: `${id} street`,
    email: `${id}@example.com`,
    lat: 45,
    lng: 4,
    arrival_s: 30_000,
    start_s: 30_000,
    finish_s: 30_600,
    status: 'planned',
    at: null,
    changed: false,
    tracking_token: `token-${id}`,
    promised: { start_s: 27_900, end_s: 32_400 },
    ...extra,
  });
  const dispatch = (stops: any[]): any => ({
    owner: 'o',
    project: { id: 'p', name: 'Rounds', date: '2026-11-23' },
    actionUuid: 'a',
    dispatched_at: '2026-11-23T06:00:00Z',
    expires_at: '2026-11-25T00:00:00Z',
    drivers: [],
    stops,
  });

  it('gives the live estimate when the day’s reports re-timed the stop, else the planned arrival', () => {
    const stops = [stop('a', 'd1', { status: 'done' }), stop('b', 'd2'), stop('c', 'd1', { eta_s: 34_000, late: true }), stop('d', 'd1')];
    const day = dispatch(stops);
    expect(trackingView(day, stops[2])).toEqual({
      name: 'Customer c',
      project: { name: 'Rounds', date: '2026-11-23' },
      status: 'planned',
      at: null,
      promised: { start_s: 27_900, end_s: 32_400 },
      eta_s: 34_000,
      stops_before: 0,
    });
    expect(trackingView(day, stops[3]).eta_s).toBe(30_000);
    expect(trackingView(day, stops[3]).stops_before).toBe(1);
    expect(trackingView(day, stops[2]).eta_s).toBe(34_000);
  });

  it('words a failure from the driver’s list for the customer, and has no promise for a stop without planned times', () => {
    const failed = stop('a', 'd1', { status: 'failed', reason: 'private words', reason_code: 'not_at_home' });
    expect(trackingView(dispatch([failed]), failed).failure).toBe('The driver came but nobody was there to receive it.');
    const untimed = stop('b', 'd1', { arrival_s: null, start_s: null, finish_s: null, promised: undefined });
    expect(trackingView(dispatch([untimed]), untimed)).toMatchObject({ promised: null, eta_s: null });
  });
});
