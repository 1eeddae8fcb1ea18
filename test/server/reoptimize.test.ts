/**
 * Re-optimizing a dispatched day (decisions.md "Editing a project and re-planning the day") over
 * HTTP, with the service's clock fixed and the project's day in Tokyo (UTC+9, far from the
 * server's zone): done stops stay first in their route as reported, each driver goes on from their
 * last report no sooner than now, undone stops keep their driver, a stop added since dispatch is
 * served; re-dispatching keeps the links. The rest of the day's plan passes the checker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { api, removeDir, startTestService, type TestService } from './harness.js';
import { optimizedProject, tokenOf, twoDriverProject } from './dispatch-harness.js';
import { makeWebRoot } from './web-harness.js';
import { checkPlan } from '../support/checker.js';
import { load } from '../input/helpers.js';
import type { SolveRunner } from '../../src/server/services/solve-runner.js';
import type { SolveJob, SolveOutcome } from '../../src/server/services/job.js';
import { planOfDocument } from '../../src/threads/tasks.js';
import { startMailbox, type Mailbox } from '../support/mailbox.js';
import { splitFixedPrefix, withFixedPrefix } from '../../src/output/fixed-prefix.js';

/** The real solver in process; a rest-of-day solve is checked against the problem it solved before it is put back together. */
class CheckingRunner implements SolveRunner {
  documents: Record<string, unknown>[] = [];

  async run(job: SolveJob): Promise<SolveOutcome> {
    const { document, frame } = splitFixedPrefix(job.document);
    this.documents.push(document as Record<string, unknown>);
    const plan = await planOfDocument({ ...job, document, timeLimitMs: 200 });
    const { problem } = load(document);
    expect(checkPlan(problem, JSON.parse(JSON.stringify(plan)))).toEqual([]);
    return { ok: true, plan: frame ? withFixedPrefix(plan, frame) : plan };
  }
}

const services: TestService[] = [];
let clock = new Date('2026-11-23T00:00:00Z'); // 09:00 in Tokyo
let runner = new CheckingRunner();

const mailboxes: Mailbox[] = [];

async function service(smtpUrl?: string): Promise<TestService> {
  const webRoot = await makeWebRoot();
  await writeFile(join(webRoot, 'driver.html'), '<!doctype html><title>driver page</title>');
  runner = new CheckingRunner();
  const smtp = smtpUrl ? { smtp: { url: smtpUrl, from: 'deliveries@bakery.example' } } : {};
  const started = await startTestService({ runner: runner as never, webRoot, now: () => clock, ...smtp });
  services.push(started);
  return started;
}

afterEach(async () => {
  clock = new Date('2026-11-23T00:00:00Z');
  for (const started of services.splice(0)) {
    await started.stop();
    await removeDir(started.dataDir);
  }
  for (const mailbox of mailboxes.splice(0)) await mailbox.close();
});

const inTokyo = (): Record<string, unknown> => ({ ...twoDriverProject(), settings: { time_zone: 'Asia/Tokyo' } });

async function finished(svc: TestService, actionUuid: string): Promise<any> {
  for (;;) {
    const action = await api(svc.url, 'GET', `/v2/schedules/${actionUuid}`);
    if (action.body.status !== 'pending') {
      expect(action.body.status).toBe('finished');
      return action.body.solution;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const stopsOf = (route: any): any[] => route.visits.filter((visit: any) => visit.kind === 'stop');

describe('POST /v1.0/project/{id}/reoptimize', () => {
  it('is refused before dispatch (409 not_dispatched) and for an unknown project (404)', async () => {
    const svc = await service();
    const { id } = await optimizedProject(svc, inTokyo());
    const early = await api(svc.url, 'POST', `/v1.0/project/${id}/reoptimize`);
    expect([early.status, early.body.error.code]).toEqual([409, 'not_dispatched']);
    const unknown = await api(svc.url, 'POST', '/v1.0/project/00000000-0000-4000-8000-000000000000/reoptimize');
    expect(unknown.status).toBe(404);
  });

  it('plans the rest of the day from now in the project’s zone around what is done, and re-dispatch keeps the links', async () => {
    const svc = await service();
    const { id } = await optimizedProject(svc, inTokyo());
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    const ana = view.drivers.find((driver: any) => driver.driver_name === 'Ana');
    const anaStops = view.stops.filter((stop: any) => stop.driver_id === ana.driver_id);
    const token = tokenOf(ana.url);
    const dispatchedPlan = (await api(svc.url, 'GET', `/v1.0/project/${id}/dispatch/solution`)).body;
    const dispatchedFirst = stopsOf(dispatchedPlan.routes.find((route: any) => route.vehicle === 'Ana'))[0];
    clock = new Date('2026-11-23T00:40:00Z'); // 09:40 in Tokyo
    const report = await api(svc.url, 'POST', `/drivers/${token}/stops/${anaStops[0].stop_id}`, {
      key: null,
      body: { status: 'done', at: '2026-11-23T00:35:00Z' },
    });
    expect(report.status).toBe(200);
    const added = await api(svc.url, 'POST', `/v1.0/project/${id}/stops`, {
      body: { name: 'Late order', location: { coords: { lat: 45.78, lng: 4.85 } }, duration: 5 },
    });
    expect(added.status).toBeLessThan(300);
    clock = new Date('2026-11-23T01:00:00Z'); // 10:00 in Tokyo, later than the report

    const started = await api(svc.url, 'POST', `/v1.0/project/${id}/reoptimize`);
    expect([started.status, started.body.actionName, started.body.project_id]).toEqual([202, 'reoptimize', id]);
    const plan = await finished(svc, started.body.actionUuid);

    // The solve: the done stop left out, Ana going on from it at 10:00, the others preferring their drivers.
    const solved = runner.documents.at(-1)!;
    const solvedStops = solved.stops as any[];
    const project = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body;
    const nameOf = (stopId: string): string => project.stops.find((stop: any) => stop.id === stopId).name;
    const driverNameOf = (driverId: string): string => view.drivers.find((driver: any) => driver.driver_id === driverId).driver_name;
    expect(solvedStops.map((stop) => stop.name)).not.toContain(nameOf(anaStops[0].stop_id));
    expect(solvedStops.find((stop) => stop.name === 'Late order').preferred_driver).toBeUndefined();
    for (const stop of view.stops.filter((candidate: any) => candidate.stop_id !== anaStops[0].stop_id)) {
      expect(solvedStops.find((solvedStop) => solvedStop.name === nameOf(stop.stop_id)).preferred_driver).toBe(
        driverNameOf(stop.driver_id),
      );
    }
    const anaSolved = (solved.drivers as any[]).find((driver) => driver.name === 'Ana');
    const doneAt = project.stops.find((stop: any) => stop.id === anaStops[0].stop_id).location.coords;
    expect(anaSolved.resume).toEqual({ lat: doneAt.lat, lng: doneAt.lng, at: '10:00:00' });

    // The plan: Ana's done stop first, as dispatched and reported; every undone stop with its driver; the new one served.
    const anaRoute = plan.routes.find((route: any) => route.vehicle === 'Ana');
    const first = stopsOf(anaRoute)[0];
    expect(project.stops[first.stop_index].id).toBe(anaStops[0].stop_id);
    expect(first).toEqual({ ...dispatchedFirst, status: 'done', reported_at: '2026-11-23T00:35:00.000Z' });
    for (const visit of stopsOf(anaRoute).slice(1)) expect(visit.arrival_s).toBeGreaterThanOrEqual(10 * 3600);
    const driverOf = new Map<string, string>();
    for (const route of plan.routes) for (const visit of stopsOf(route)) driverOf.set(project.stops[visit.stop_index].id, route.vehicle);
    for (const stop of view.stops) {
      expect(driverOf.get(stop.stop_id)).toBe(driverNameOf(stop.driver_id));
    }
    expect(driverOf.get(project.stops.find((stop: any) => stop.name === 'Late order').id)).toBeDefined();
    expect(plan.summary.served).toBe(5);
    expect(project.optimizations[0]).toMatchObject({ actionUuid: started.body.actionUuid, kind: 'reoptimized' });

    // Re-dispatch: the same link, the done stop still done with its time, the new route on the driver page.
    const redispatched = await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: { redispatch: true } });
    expect(redispatched.status).toBe(200);
    expect(redispatched.body.drivers.find((driver: any) => driver.driver_name === 'Ana').url).toBe(ana.url);
    const route = (await api(svc.url, 'GET', `/drivers/${token}/route`, { key: null })).body;
    expect(route.stops[0]).toMatchObject({ stop_id: anaStops[0].stop_id, status: 'done', at: '2026-11-23T00:35:00.000Z' });
    expect(route.stops.map((stop: any) => stop.stop_id)).toEqual(stopsOf(anaRoute).map((visit: any) => project.stops[visit.stop_index].id));

    // Later in the day, once more: the next stop done too; both stay first, in the order driven.
    const next = route.stops[1];
    clock = new Date('2026-11-23T01:20:00Z');
    await api(svc.url, 'POST', `/drivers/${token}/stops/${next.stop_id}`, { key: null, body: { status: 'failed', reason: 'Closed' } });
    clock = new Date('2026-11-23T01:30:00Z');
    const again = await api(svc.url, 'POST', `/v1.0/project/${id}/reoptimize`);
    const later = await finished(svc, again.body.actionUuid);
    const anaLater = stopsOf(later.routes.find((candidate: any) => candidate.vehicle === 'Ana'));
    expect(anaLater.slice(0, 2).map((visit: any) => [project.stops[visit.stop_index].id, visit.status])).toEqual([
      [anaStops[0].stop_id, 'done'],
      [next.stop_id, 'failed'],
    ]);
    expect(anaLater[1]).toMatchObject({ reported_at: '2026-11-23T01:20:00.000Z', reason: 'Closed' });
    expect((runner.documents.at(-1)!.drivers as any[]).find((driver) => driver.name === 'Ana').resume.at).toBe('10:30:00');
    for (const visit of anaLater.slice(2)) expect(visit.arrival_s).toBeGreaterThanOrEqual(10.5 * 3600);
    expect(later.summary.served + later.unserved.length).toBe(5);
  });

  it('before the shift, the drivers leave at their shift start, not at now', async () => {
    const svc = await service();
    clock = new Date('2026-11-22T21:30:00Z'); // 06:30 in Tokyo on the project's date, before the 08:00 shifts
    const { id } = await optimizedProject(svc, inTokyo());
    expect((await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).status).toBe(201);
    const started = await api(svc.url, 'POST', `/v1.0/project/${id}/reoptimize`);
    const plan = await finished(svc, started.body.actionUuid);
    expect((runner.documents.at(-1)!.drivers as any[]).map((driver) => driver.resume.at)).toEqual(['6:30:00', '6:30:00']);
    for (const route of plan.routes) expect(route.start.time_s).toBeGreaterThanOrEqual(8 * 3600);
    expect(plan.summary.served).toBe(4);
  });
});

describe('customers after a re-optimization', () => {
  it('get a revised planned message when their window changed; a done stop’s customer gets none', async () => {
    const smtp = await startMailbox();
    mailboxes.push(smtp);
    const svc = await service(smtp.url);
    const document = inTokyo();
    (document.stops as Record<string, unknown>[]).forEach((stop, i) => (stop.email = `customer-${i}@example.com`));
    const { id } = await optimizedProject(svc, document);
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    await smtp.waitFor(4);
    const ana = view.drivers.find((driver: any) => driver.driver_name === 'Ana');
    const done = view.stops.find((stop: any) => stop.driver_id === ana.driver_id);
    clock = new Date('2026-11-23T00:30:00Z');
    await api(svc.url, 'POST', `/drivers/${tokenOf(ana.url)}/stops/${done.stop_id}`, { key: null, body: { status: 'done' } });
    await smtp.waitFor(5);
    // The live re-timing after Done may already have revised a later stop of Ana's (its own message).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const beforeReoptimizing = smtp.received.length;
    clock = new Date('2026-11-23T01:30:00Z'); // 10:30 in Tokyo: every stop not done moves later
    const started = await api(svc.url, 'POST', `/v1.0/project/${id}/reoptimize`);
    await finished(svc, started.body.actionUuid);
    await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: { redispatch: true } });
    await smtp.waitFor(beforeReoptimizing + 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const project = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body;
    const doneEmail = project.stops.find((stop: any) => stop.id === done.stop_id).email;
    const revised = smtp.received.slice(beforeReoptimizing).map((mail) => (mail.to as any).value[0].address);
    expect(revised.sort()).toEqual(
      project.stops
        .map((stop: any) => stop.email)
        .filter((email: string) => email !== doneEmail)
        .sort(),
    );
    for (const mail of smtp.received.slice(beforeReoptimizing)) expect(mail.subject).toMatch(/between 1[0-2]:\d\d and 1[0-2]:\d\d$/);
  });
});

describe('settings.time_zone', () => {
  it('must be an IANA zone: 400 with the path settings.time_zone', async () => {
    const svc = await service();
    for (const zone of ['Mars/Olympus', 'GMT+25', '', 42]) {
      const created = await api(svc.url, 'POST', '/v1.0/project', { body: { ...twoDriverProject(), settings: { time_zone: zone } } });
      expect(created.status).toBe(400);
      expect(created.body.error.details.map((detail: any) => detail.path)).toContain('settings.time_zone');
    }
    const good = await api(svc.url, 'POST', '/v1.0/project', {
      body: { ...twoDriverProject(), settings: { time_zone: 'America/New_York' } },
    });
    expect(good.status).toBe(201);
  });
});
