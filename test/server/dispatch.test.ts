/**
 * Dispatch over HTTP (decisions.md, "Dispatch to drivers"): freezing a plan, driver links, driver
 * reports, re-dispatch, revoke and expiry — against the real service and store, with the real solver
 * run in process so the plans fit their projects.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { api, removeDir, startTestService, type TestService } from './harness.js';
import { InProcessRunner, optimize, optimizedProject, tokenOf, twoDriverProject } from './dispatch-harness.js';
import { makeWebRoot } from './web-harness.js';
import { checkPlan } from '../support/checker.js';
import { loadProblemDocument } from '../../src/input/index.js';

const services: TestService[] = [];
let clock = new Date('2026-11-23T07:00:00Z');

async function service(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const webRoot = await makeWebRoot();
  await writeFile(join(webRoot, 'driver.html'), '<!doctype html><title>driver page</title>');
  const started = await startTestService({ runner: new InProcessRunner() as never, webRoot, now: () => clock, ...options });
  services.push(started);
  return started;
}

afterEach(async () => {
  clock = new Date('2026-11-23T07:00:00Z');
  for (const started of services.splice(0)) {
    await started.stop();
    await removeDir(started.dataDir);
  }
});

describe('dispatching a project', () => {
  it('refuses to dispatch before any optimization has finished (409 no_plan), and GET answers 404 not_dispatched', async () => {
    const svc = await service();
    const created = await api(svc.url, 'POST', '/v1.0/project', { body: twoDriverProject() });
    expect((await api(svc.url, 'POST', `/v1.0/project/${created.body.id}/dispatch`, { body: {} })).body.error.code).toBe('no_plan');
    const view = await api(svc.url, 'GET', `/v1.0/project/${created.body.id}/dispatch`);
    expect([view.status, view.body.error.code]).toEqual([404, 'not_dispatched']);
  });

  it('freezes the latest plan: stops in route order with their drivers, a link per driver, 201 and the project record gains it', async () => {
    const svc = await service();
    const { id, actionUuid } = await optimizedProject(svc);
    const dispatched = await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`);
    expect(dispatched.status).toBe(201);
    const plan = (await api(svc.url, 'GET', `/v2/schedules/${actionUuid}/solution`)).body;
    const project = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body;
    const idOfStop = (index: number): string => project.stops[index].id;
    const expected = plan.routes.flatMap((route: any) =>
      route.visits
        .filter((visit: any) => visit.kind === 'stop')
        .map((visit: any) => ({ stop_id: idOfStop(visit.stop_index), driver_id: project.drivers[route.vehicle_index].id })),
    );
    expect(dispatched.body.actionUuid).toBe(actionUuid);
    expect(dispatched.body.stops.map((stop: any) => ({ stop_id: stop.stop_id, driver_id: stop.driver_id }))).toEqual(expected);
    expect(dispatched.body.stops.every((stop: any) => stop.status === 'planned' && stop.at === null)).toBe(true);
    for (const driver of dispatched.body.drivers) {
      expect(driver.url).toMatch(new RegExp(`^${svc.url}/drivers/[A-Za-z0-9_-]{32}$`));
      expect(driver.revoked).toBe(false);
      expect(driver.expires_at).toBe('2026-11-25T00:00:00.000Z');
    }
    expect(dispatched.body.drivers.find((driver: any) => driver.driver_name === 'Ana').phone_number).toBe('+33 6 11 22 33 44');
    expect(project.dispatch).toEqual(dispatched.body);
    expect(project.notifications).toEqual({ enabled: false, messages: [] });
  });

  it('dispatches the optimization named by actionUuid, and refuses one of another project (404)', async () => {
    const svc = await service();
    const first = await optimizedProject(svc);
    await optimize(svc, first.id);
    const other = await optimizedProject(svc);
    const foreign = await api(svc.url, 'POST', `/v1.0/project/${first.id}/dispatch`, { body: { actionUuid: other.actionUuid } });
    expect(foreign.status).toBe(404);
    const chosen = await api(svc.url, 'POST', `/v1.0/project/${first.id}/dispatch`, { body: { actionUuid: first.actionUuid } });
    expect([chosen.status, chosen.body.actionUuid]).toEqual([201, first.actionUuid]);
    const bad = await api(svc.url, 'POST', `/v1.0/project/${first.id}/dispatch`, { body: { redispatch: 'yes' } });
    expect([bad.status, bad.body.error.details[0].path]).toEqual([400, 'redispatch']);
  });

  it('keeps the dispatched plan when the project is optimized again, until an explicit re-dispatch (409 already_dispatched)', async () => {
    const svc = await service();
    const { id } = await optimizedProject(svc);
    const first = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    const frozen = (await api(svc.url, 'GET', `/v1.0/project/${id}/dispatch/solution`)).body;
    const later = await optimize(svc, id);
    expect((await api(svc.url, 'GET', `/v1.0/project/${id}/dispatch/solution`)).body).toEqual(frozen);
    const again = await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: {} });
    expect([again.status, again.body.error.code]).toEqual([409, 'already_dispatched']);
    const redispatched = await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: { redispatch: true } });
    expect([redispatched.status, redispatched.body.actionUuid]).toEqual([200, later]);
    // The drivers keep their links: what they opened now shows the new route.
    expect(redispatched.body.drivers.map((driver: any) => driver.url)).toEqual(first.drivers.map((driver: any) => driver.url));
  });

  it('answers another key’s project dispatch like a missing project (404)', async () => {
    const svc = await service();
    const { id } = await optimizedProject(svc);
    await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`);
    expect((await api(svc.url, 'GET', `/v1.0/project/${id}/dispatch`, { key: 'key-beta' })).status).toBe(404);
    expect((await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`, { key: 'key-beta', body: { redispatch: true } })).status).toBe(404);
  });
});

describe('a driver link', () => {
  it('reads its own driver’s route only: stops in order with times, address, phone, notes and custom notes', async () => {
    const svc = await service();
    const { id, actionUuid } = await optimizedProject(svc);
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    const plan = (await api(svc.url, 'GET', `/v2/schedules/${actionUuid}/solution`)).body;
    for (const driver of view.drivers) {
      const route = await api(svc.url, 'GET', `/drivers/${tokenOf(driver.url)}/route`, { key: null });
      expect(route.status).toBe(200);
      expect(route.headers.get('cache-control')).toBe('no-store');
      expect(route.headers.get('referrer-policy')).toBe('no-referrer');
      expect(route.body.driver).toEqual({ id: driver.driver_id, name: driver.driver_name });
      expect(route.body.project).toEqual({ name: 'Morning rounds', date: '2026-11-23' });
      const planned = plan.routes.find((entry: any) => entry.vehicle === driver.driver_name);
      const visits = planned.visits.filter((visit: any) => visit.kind === 'stop');
      expect(route.body.stops.map((stop: any) => [stop.name, stop.arrival_s, stop.start_s])).toEqual(
        visits.map((visit: any) => [visit.stop, visit.arrival_s, visit.start_s]),
      );
      expect(route.body.start).toEqual({ lat: 45.76, lng: 4.83, time_s: planned.start.time_s });
    }
    // Every stop is on exactly one driver's page.
    const all = await Promise.all(view.drivers.map((driver: any) => api(svc.url, 'GET', `/drivers/${tokenOf(driver.url)}/route`)));
    const names = all.flatMap((reply) => reply.body.stops.map((stop: any) => stop.name)).sort();
    expect(names).toEqual(['North bakery', 'North cafe', 'South bakery', 'South cafe']);
    const bakery = all.flatMap((reply) => reply.body.stops).find((stop: any) => stop.name === 'North bakery');
    expect(bakery).toMatchObject({ address: 'North bakery street 1, Lyon', phone_number: '+33 4 00 00 00 01', notes: 'Ring twice' });
    expect(bakery.email).toBeUndefined(); // the driver page has no use for the customer's e-mail
    const cafe = all.flatMap((reply) => reply.body.stops).find((stop: any) => stop.name === 'North cafe');
    expect(cafe.custom_notes).toEqual({ door: 'B', floor: 2 });
  });

  it('marks its stops done, failed with a reason, and back to planned; the dispatcher sees each report', async () => {
    const svc = await service();
    const { id } = await optimizedProject(svc);
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    clock = new Date('2026-11-23T09:00:00Z');
    const driver = view.drivers[0];
    const token = tokenOf(driver.url);
    const [first, second] = view.stops.filter((stop: any) => stop.driver_id === driver.driver_id);
    const post = (stopId: string, body: unknown): ReturnType<typeof api> =>
      api(svc.url, 'POST', `/drivers/${token}/stops/${stopId}`, { key: null, body });

    const done = await post(first.stop_id, { status: 'done', at: '2026-11-23T08:41:00Z' });
    expect([done.status, done.body.status, done.body.at]).toEqual([200, 'done', '2026-11-23T08:41:00.000Z']);
    const noReason = await post(second.stop_id, { status: 'failed' });
    expect([noReason.status, noReason.body.error.code, noReason.body.error.details[0].path]).toEqual([400, 'invalid_status', 'reason']);
    const failed = await post(second.stop_id, { status: 'failed', reason: '  Closed, nobody answered  ', at: '2026-11-23T10:00:00Z' });
    // A device clock an hour ahead: the server's time instead.
    expect([failed.body.status, failed.body.reason, failed.body.at]).toEqual(['failed', 'Closed, nobody answered', clock.toISOString()]);
    const future = await post(first.stop_id, { status: 'done', at: '2030-01-01T00:00:00Z' });
    expect(future.body.at).toBe('2026-11-23T08:41:00.000Z'); // the same report again changes nothing

    const seen = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body.dispatch.stops;
    expect(seen.find((stop: any) => stop.stop_id === first.stop_id)).toMatchObject({ status: 'done', at: '2026-11-23T08:41:00.000Z' });
    expect(seen.find((stop: any) => stop.stop_id === second.stop_id)).toMatchObject({
      status: 'failed',
      reason: 'Closed, nobody answered',
    });

    const undone = await post(second.stop_id, { status: 'planned' });
    expect([undone.body.status, undone.body.at, undone.body.reason]).toEqual(['planned', null, undefined]);
    for (const bad of [{ status: 'lost' }, [], { status: 'done', at: 'yesterday' }, { status: 'failed', reason: 'x'.repeat(501) }]) {
      expect((await post(first.stop_id, bad)).status).toBe(400);
    }
  });

  it('cannot read or report another driver’s stops (404 stop_not_found), and an unknown token is 404 link_not_found', async () => {
    const svc = await service();
    const { id } = await optimizedProject(svc);
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    const [ana, ben] = view.drivers;
    const bensStop = view.stops.find((stop: any) => stop.driver_id === ben.driver_id);
    const crossed = await api(svc.url, 'POST', `/drivers/${tokenOf(ana.url)}/stops/${bensStop.stop_id}`, {
      key: null,
      body: { status: 'done' },
    });
    expect([crossed.status, crossed.body.error.code]).toEqual([404, 'stop_not_found']);
    const anasRoute = (await api(svc.url, 'GET', `/drivers/${tokenOf(ana.url)}/route`, { key: null })).body;
    expect(anasRoute.stops.some((stop: any) => stop.stop_id === bensStop.stop_id)).toBe(false);
    const unknown = await api(svc.url, 'GET', `/drivers/${'x'.repeat(32)}/route`, { key: null });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'link_not_found']);
  });

  it('answers 410 link_revoked once revoked, and a new link works while the old one stays withdrawn', async () => {
    const svc = await service();
    const { id } = await optimizedProject(svc);
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    const ana = view.drivers[0];
    const revoked = await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch/drivers/${ana.driver_id}/revoke`);
    expect(revoked.body.drivers[0]).toMatchObject({ revoked: true });
    expect(revoked.body.drivers[0].url).toBeUndefined();
    const refused = await api(svc.url, 'GET', `/drivers/${tokenOf(ana.url)}/route`, { key: null });
    expect([refused.status, refused.body.error.code]).toEqual([410, 'link_revoked']);
    expect((await api(svc.url, 'GET', `/drivers/${tokenOf(ana.url)}`, { key: null })).status).toBe(410);
    const renewed = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch/drivers/${ana.driver_id}/link`)).body.drivers[0];
    expect(renewed.url).not.toBe(ana.url);
    expect((await api(svc.url, 'GET', `/drivers/${tokenOf(renewed.url)}/route`, { key: null })).status).toBe(200);
    expect((await api(svc.url, 'GET', `/drivers/${tokenOf(ana.url)}/route`, { key: null })).status).toBe(410);
    expect((await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch/drivers/nobody/revoke`)).status).toBe(404);
  });

  it('expires after the end of the project’s date plus the configured grace (410 link_expired)', async () => {
    const svc = await service({ driverLinkGraceMs: 2 * 3_600_000 });
    const { id } = await optimizedProject(svc);
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    const token = tokenOf(view.drivers[0].url);
    expect(view.drivers[0].expires_at).toBe('2026-11-24T02:00:00.000Z');
    clock = new Date('2026-11-24T01:59:59Z');
    expect((await api(svc.url, 'GET', `/drivers/${token}/route`, { key: null })).status).toBe(200);
    clock = new Date('2026-11-24T02:00:01Z');
    const expired = await api(svc.url, 'GET', `/drivers/${token}/route`, { key: null });
    expect([expired.status, expired.body.error.code]).toEqual([410, 'link_expired']);
    const page = await api(svc.url, 'GET', `/drivers/${token}`, { key: null });
    expect([page.status, page.headers.get('referrer-policy')]).toEqual([410, 'no-referrer']);
  });

  it('opens for the grace after dispatching even when the project’s date is past', async () => {
    clock = new Date('2027-03-01T10:00:00Z');
    const svc = await service();
    const { id } = await optimizedProject(svc);
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    expect(view.drivers[0].expires_at).toBe('2027-03-02T10:00:00.000Z');
    expect((await api(svc.url, 'GET', `/drivers/${tokenOf(view.drivers[0].url)}/route`, { key: null })).status).toBe(200);
  });

  it('serves the driver page without sign-in, and never writes a token to the log', async () => {
    const svc = await service();
    const { id } = await optimizedProject(svc);
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    const token = tokenOf(view.drivers[0].url);
    const page = await api(svc.url, 'GET', `/drivers/${token}`, { key: null });
    expect([page.status, page.body]).toEqual([200, '<!doctype html><title>driver page</title>']);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    await api(svc.url, 'GET', `/drivers/${token}/route`, { key: null });
    expect(svc.logs.join('\n')).not.toContain(token);
    expect(svc.logs.some((line) => line.includes('/drivers/<redacted>/route'))).toBe(true);
  });
});

describe('a dispatch across a restart and a re-dispatch', () => {
  it('keeps links and reports across a restart, and a re-dispatch keeps each stop’s report', async () => {
    const svc = await service();
    const { id } = await optimizedProject(svc);
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    const token = tokenOf(view.drivers[0].url);
    const stopId = view.stops.find((stop: any) => stop.driver_id === view.drivers[0].driver_id).stop_id;
    await api(svc.url, 'POST', `/drivers/${token}/stops/${stopId}`, { key: null, body: { status: 'done' } });
    await svc.stop();
    const again = await service({ dataDir: svc.dataDir });
    const route = await api(again.url, 'GET', `/drivers/${token}/route`, { key: null });
    expect(route.body.stops.find((stop: any) => stop.stop_id === stopId).status).toBe('done');
    await optimize(again, id);
    const redispatched = (await api(again.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: { redispatch: true } })).body;
    expect(redispatched.stops.find((stop: any) => stop.stop_id === stopId).status).toBe('done');
  });
});

describe('the frozen plan', () => {
  it('is a plan of the project that the independent checker accepts', async () => {
    const svc = await service();
    const document = twoDriverProject();
    const { id } = await optimizedProject(svc, document);
    await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`);
    const frozen = (await api(svc.url, 'GET', `/v1.0/project/${id}/dispatch/solution`)).body;
    const { problem } = loadProblemDocument(document, { expect: 'project' });
    expect(checkPlan(problem, frozen)).toEqual([]);
    expect(frozen.summary.served).toBe(4);
  });
});
