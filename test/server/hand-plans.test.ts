/**
 * Plans made by hand over the API (decisions.md, "Editing a project and re-planning the day"), on
 * both stores: POST /v1.0/project/{id}/plans/evaluate re-times routes and names what they break,
 * changing nothing; POST /v1.0/project/{id}/plans keeps them as a plan of kind `edited` with its
 * `changes`; 400 with paths, 404, 412; every plan after the first says what changed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api, servicesStoppedAfterEach, type ApiReply, type TestService } from './harness.js';
import { InProcessRunner, optimize, optimizedProject, twoDriverProject } from './dispatch-harness.js';
import { freshDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres.js';
import { checkPlan } from '../support/checker.js';
import { loadProblemDocument } from '../../src/input/index.js';
import type { Plan } from '../../src/output/plan-types.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const STORES = postgresUnavailable() === null ? ['data directory', 'PostgreSQL'] : ['data directory'];

async function send(base: string, path: string, body: unknown, ifMatch?: string): Promise<ApiReply> {
  const headers: Record<string, string> = { authorization: 'Bearer key-alpha', 'content-type': 'application/json' };
  if (ifMatch !== undefined) headers['if-match'] = ifMatch;
  const response = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
}

/** The project's routes as driver id → stop ids, read from a plan (the stops' and drivers' order is the record's). */
function routesOf(project: any, plan: Plan): Record<string, string[]> {
  const routes: Record<string, string[]> = {};
  for (const route of plan.routes) {
    routes[project.drivers[route.vehicle_index].id] = route.visits.flatMap((v) =>
      v.kind === 'stop' ? [project.stops[v.stop_index].id] : [],
    );
  }
  return routes;
}

describe.each(STORES)('plans made by hand: %s', (store) => {
  const databases: TestDatabase[] = [];
  const start = servicesStoppedAfterEach(() => ({ runner: new InProcessRunner() as never }));
  afterEach(async () => {
    for (const db of databases.splice(0)) await db.drop();
  });

  async function service(): Promise<TestService> {
    if (store === 'data directory') return start();
    const db = await freshDatabase();
    databases.push(db);
    return start({ database: db.url });
  }

  async function optimized(svc: TestService): Promise<{ project: any; actionUuid: string; plan: Plan }> {
    const { id, actionUuid } = await optimizedProject(svc);
    const project = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body;
    const plan = (await api(svc.url, 'GET', `/v2/schedules/${actionUuid}`)).body.solution as Plan;
    return { project, actionUuid, plan };
  }

  it('evaluate: one stop moved to the other driver → the re-timed plan and the overload it causes; nothing is kept', async () => {
    const svc = await service();
    const { project, actionUuid, plan } = await optimized(svc);
    expect(plan.routes).toHaveLength(2);
    const routes = routesOf(project, plan);
    const [ana, ben] = project.drivers.map((d: any) => d.id);
    const moved = routes[ben]!.shift()!;
    routes[ana]!.push(moved);
    const reply = await send(svc.url, `/v1.0/project/${project.id}/plans/evaluate`, { base: actionUuid, routes }, '"1"');
    expect(reply.status).toBe(200);
    expect(reply.body.project_version).toBe(1);
    // Ana has room for 2 and now carries 3: one overload, and the checker sees the same.
    expect(reply.body.violations).toEqual([
      {
        kind: 'overload',
        driver: 'Ana',
        vehicle_index: 0,
        amount: 1,
        dimension: '',
        permitted: false,
        message: 'overload: load 3 of a capacity of 2 (1 over)',
      },
    ]);
    const evaluated = reply.body.plan as Plan;
    const problem = loadProblemDocument(twoDriverProject(), { expect: 'project' }).problem;
    expect(checkPlan(problem, evaluated)).toEqual(['route 0 (Ana): load 3 on dimension "" exceeds capacity 2']);
    expect(evaluated.routes[0]!.visits.filter((v) => v.kind === 'stop')).toHaveLength(3);
    expect((await api(svc.url, 'GET', `/v1.0/project/${project.id}`)).body.optimizations).toHaveLength(1);
  });

  it('save: 201, a finished action of kind edited in the project history, with its changes; the next optimization carries changes too', async () => {
    const svc = await service();
    const { project, actionUuid, plan } = await optimized(svc);
    const routes = routesOf(project, plan);
    const [ana, ben] = project.drivers.map((d: any) => d.id);
    const moved = routes[ben]!.pop()!;
    routes[ana]!.splice(0, 1, moved);
    const dropped = plan.routes[0]!.visits.find((v) => v.kind === 'stop')!;
    const saved = await send(svc.url, `/v1.0/project/${project.id}/plans`, { base: actionUuid, routes });
    expect(saved.status).toBe(201);
    expect(saved.headers.get('location')).toBe(`/v2/schedules/${saved.body.actionUuid}`);
    expect(saved.body).toMatchObject({
      status: 'finished',
      kind: 'edited',
      based_on: actionUuid,
      project_id: project.id,
      project_version: 1,
      violations: [],
    });
    const action = (await api(svc.url, 'GET', `/v2/schedules/${saved.body.actionUuid}`)).body;
    const changes = action.solution.changes;
    const movedName = project.stops.find((s: any) => s.id === moved).name;
    expect(changes).toMatchObject({
      against: actionUuid,
      driver_changed: [{ stop: movedName, from: 'Ben', to: 'Ana' }],
      added: [],
      removed: [{ stop: (dropped as any).stop, driver: 'Ana' }],
    });
    expect(changes.working_s.delta).toBeCloseTo(action.solution.summary.working_s - plan.summary.working_s, 6);
    expect(changes.distance_m.delta).toBeCloseTo(action.solution.summary.distance_m - plan.summary.distance_m, 6);
    expect(action.solution.unserved.map((u: any) => [u.stop, u.reason])).toEqual([[(dropped as any).stop, 'dropped_for_capacity_or_time']]);
    const history = (await api(svc.url, 'GET', `/v1.0/project/${project.id}`)).body.optimizations;
    expect(history.map((o: any) => [o.actionUuid, o.kind, o.status])).toEqual([
      [saved.body.actionUuid, 'edited', 'finished'],
      [actionUuid, 'optimized', 'finished'],
    ]);
    const again = await optimize(svc, project.id);
    const next = (await api(svc.url, 'GET', `/v2/schedules/${again}`)).body;
    expect(next.kind).toBe('optimized');
    expect(next.solution.changes.against).toBe(saved.body.actionUuid);
    expect(next.solution.changes.added).toEqual([{ stop: (dropped as any).stop, driver: expect.any(String) }]);
    // An edited plan is dispatched like any plan: its routes become the drivers' routes.
    const dispatched = await api(svc.url, 'POST', `/v1.0/project/${project.id}/dispatch`, { body: { actionUuid: saved.body.actionUuid } });
    expect(dispatched.status).toBe(201);
    const anaStops = dispatched.body.stops.filter((s: any) => s.driver_id === ana).map((s: any) => s.stop_id);
    expect(anaStops).toEqual(routes[ana]);
    // The first plan of a project has nothing to compare with.
    expect((await api(svc.url, 'GET', `/v2/schedules/${actionUuid}`)).body.solution.changes).toBeUndefined();
  });

  it('400 with the path of each problem: unknown stop, a stop twice, unknown driver, no routes object, a base that is no plan', async () => {
    const svc = await service();
    const { project, plan } = await optimized(svc);
    const [ana, ben] = project.drivers.map((d: any) => d.id);
    const [s0, s1] = project.stops.map((s: any) => s.id);
    const bad = await send(svc.url, `/v1.0/project/${project.id}/plans/evaluate`, {
      routes: { [ana]: [s0, UNKNOWN, s1], [ben]: [s1], nobody: [] },
      unserved: [s0],
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_input']);
    expect(bad.body.error.details).toEqual([
      { path: `routes.${ana}[1]`, message: `"${UNKNOWN}" is no stop of the project` },
      { path: `routes.${ben}[0]`, message: `stop ${s1} is given twice (also at routes.${ana}[2])` },
      { path: 'routes.nobody', message: 'nobody is no driver of the project' },
      { path: 'unserved[0]', message: `stop ${s0} is given twice (also at routes.${ana}[0])` },
    ]);
    const noRoutes = await send(svc.url, `/v1.0/project/${project.id}/plans`, { routes: [] });
    expect([noRoutes.status, noRoutes.body.error.details[0].path]).toEqual([400, 'routes']);
    const badBase = await send(svc.url, `/v1.0/project/${project.id}/plans`, { base: UNKNOWN, routes: routesOf(project, plan) });
    expect([badBase.status, badBase.body.error.details[0].path]).toEqual([400, 'base']);
    expect((await api(svc.url, 'GET', `/v1.0/project/${project.id}`)).body.optimizations).toHaveLength(1);
  });

  it('404 for a project that is not the caller’s; 412 when If-Match names an older version, and nothing is kept', async () => {
    const svc = await service();
    const { project, plan } = await optimized(svc);
    const routes = routesOf(project, plan);
    expect((await send(svc.url, `/v1.0/project/${UNKNOWN}/plans/evaluate`, { routes })).status).toBe(404);
    expect((await send(svc.url, `/v1.0/project/${UNKNOWN}/plans`, { routes })).status).toBe(404);
    const renamed = await api(svc.url, 'PATCH', `/v1.0/project/${project.id}`, { body: { name: 'Renamed' } });
    expect(renamed.body.version).toBe(2);
    for (const path of ['plans', 'plans/evaluate']) {
      const stale = await send(svc.url, `/v1.0/project/${project.id}/${path}`, { routes }, '"1"');
      expect([stale.status, stale.body.error.code, stale.headers.get('etag')]).toEqual([412, 'version_mismatch', '"2"']);
    }
    expect((await api(svc.url, 'GET', `/v1.0/project/${project.id}`)).body.optimizations).toHaveLength(1);
    const current = await send(svc.url, `/v1.0/project/${project.id}/plans`, { routes }, '"2"');
    expect([current.status, current.body.project_version, current.body.solution.changes.driver_changed]).toEqual([201, 2, []]);
  });
});
