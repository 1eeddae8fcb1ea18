/**
 * Webhooks on the data directory (issue 28, decisions.md "The live day"): a real receiver on
 * loopback (test/support/webhook-receiver.ts), the real solver in process, a whole day — optimized,
 * dispatched, a stop done late (which moves the next one's estimate), a stop failed — and a
 * cancelled one-off. Every request's signature is checked as a receiver checks it; each event is
 * delivered once per id after the receiver failed its first three tries; a receiver that never
 * answers well is given up after the window; 410 stops at once; a restart delivers what was left.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { verifySignature } from '../../src/server/services/webhooks/index.js';
import { parseExposition } from '../support/prometheus.js';
import { checkPlan } from '../support/checker.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { InProcessRunner, optimizedProject, tokenOf, twoDriverProject } from './dispatch-harness.js';
import { api, removeDir, ScriptedRunner, smallOneOff, startTestService, type TestService } from './harness.js';

const SECRET = 'whsec-test-0123456789abcdef';
const CLOCK = new Date('2026-11-23T11:00:00Z');
/** Short waits, so that three failed tries take milliseconds; the 24 h window stands unless a test shortens it. */
const QUICK = { firstWaitMs: 20, longestWaitMs: 100 };

let receiver: WebhookReceiver;
const services: TestService[] = [];

beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  for (const started of services.splice(0)) {
    await started.stop();
    await removeDir(started.dataDir);
  }
  await receiver.close();
});

async function service(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const started = await startTestService({
    now: () => CLOCK,
    webhooks: { urls: [receiver.url], secret: SECRET },
    webhookSchedule: QUICK,
    ...options,
  });
  services.push(started);
  return started;
}

/** What a scrape of the service's /metrics says of webhook delivery attempts with this outcome, over all events. */
async function deliveries(url: string, outcome: string): Promise<number> {
  const response = await fetch(`${url}/metrics`);
  const samples = parseExposition(await response.text()).filter(
    (sample) => sample.name === 'routeplan_webhook_deliveries_total' && sample.labels.outcome === outcome,
  );
  return samples.reduce((sum, sample) => sum + sample.value, 0);
}

/** Every request the receiver got carries a valid signature of its body, made at the time it was sent. */
function expectAllSigned(): void {
  expect(receiver.received.length).toBeGreaterThan(0);
  for (const hook of receiver.received) {
    expect(verifySignature(SECRET, hook.signature, hook.body, new Date(hook.at)), hook.signature).toBe(true);
    expect(hook.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(JSON.parse(hook.body).id).toBe(hook.eventId);
  }
}

function instant(seconds: number): string {
  return new Date(Date.parse('2026-11-23T00:00:00Z') + seconds * 1000).toISOString();
}

/** The events delivered (answered 2xx), one body per id. */
function deliveredEvents(): any[] {
  const byId = new Map<string, any>();
  for (const hook of receiver.received) if (hook.status !== null && hook.status < 300) byId.set(hook.eventId, JSON.parse(hook.body));
  return [...byId.values()];
}

describe('webhooks (data directory)', () => {
  it('a whole day: each event signed, delivered once per id after three failed tries, with useful data and nothing personal', async () => {
    receiver.failFirst(3);
    const svc = await service({ runner: new InProcessRunner() as never });
    const document = { ...twoDriverProject(), settings: { time_zone: 'UTC' } };
    const { id, actionUuid } = await optimizedProject(svc, document);
    const plan = (await api(svc.url, 'GET', `/v2/schedules/${actionUuid}/solution`)).body;
    expect(checkPlan(loadProblemDocument(document).problem, plan)).toEqual([]);
    const dispatched = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: {} })).body;
    const ana = dispatched.drivers.find((driver: any) => driver.driver_name === 'Ana');
    const [first, second] = dispatched.stops.filter((stop: any) => stop.driver_id === ana.driver_id);
    const report = (stopId: string, body: unknown): Promise<unknown> =>
      api(svc.url, 'POST', `/drivers/${tokenOf(ana.url)}/stops/${stopId}`, { key: null, body });
    // Done 40 min after its planned finish: the next stop's estimate moves 40 min.
    await report(first.stop_id, { status: 'done', at: instant(first.arrival_s + 600 + 2400) });
    await report(first.stop_id, { status: 'done', at: instant(first.arrival_s + 600 + 2400) });
    await report(second.stop_id, { status: 'failed', reason_code: 'not_at_home', reason: 'Mrs Dupont is on holiday' });

    const types = (): string[] => deliveredEvents().map((event) => event.type);
    await receiver.waitFor(() => ['stop.failed', 'stop.eta_changed', 'stop.done', 'project.dispatched'].every((t) => types().includes(t)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expectAllSigned();
    const events = deliveredEvents();
    expect(events.map((event) => event.type).sort()).toEqual(
      ['optimization.finished', 'project.dispatched', 'stop.done', 'stop.eta_changed', 'stop.failed'].sort(),
    );
    // Each id: three 500s, then one 2xx, and never again.
    for (const [eventId, count] of receiver.deliveredIds()) {
      expect(count).toBe(1);
      expect(receiver.received.filter((hook) => hook.eventId === eventId).map((hook) => hook.status)).toEqual([500, 500, 500, 204]);
    }
    const byType = Object.fromEntries(events.map((event) => [event.type, event]));
    expect(byType['optimization.finished']).toMatchObject({
      data: { action_id: actionUuid, action_name: 'optimize', status: 'finished', project_id: id, project_name: 'Morning rounds' },
    });
    expect(byType['optimization.finished'].data.summary).toEqual({ served: 4, unserved: 0, routes_used: plan.summary.routes_used });
    expect(byType['project.dispatched'].data).toMatchObject({
      project_id: id,
      action_id: actionUuid,
      redispatch: false,
      stops: { total: 4, planned: 4 },
    });
    expect(byType['stop.done'].data).toMatchObject({ project_id: id, stop_id: first.stop_id, driver_id: ana.driver_id, status: 'done' });
    expect(byType['stop.failed'].data).toMatchObject({ stop_id: second.stop_id, status: 'failed', reason_code: 'not_at_home' });
    expect(byType['stop.eta_changed'].data).toMatchObject({ stop_id: second.stop_id, eta_s: second.arrival_s + 2400, late: false });
    for (const event of events) {
      expect(Object.keys(event).sort()).toEqual(['created_at', 'data', 'id', 'type']);
      expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const everything = receiver.received.map((hook) => hook.body).join('\n');
    for (const personal of ['Dupont', 'North bakery', 'north@example.com', '+33', 'key-alpha', SECRET])
      expect(everything).not.toContain(personal);
    expect(await deliveries(svc.url, 'failed')).toBe(3 * events.length);
    expect(await deliveries(svc.url, 'delivered')).toBe(events.length);
  }, 30_000);

  it('a cancelled one-off schedule: optimization.failed with its error code and no project', async () => {
    const runner = new ScriptedRunner();
    const svc = await service({ runner });
    const accepted = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    await runner.waitForStarts(1);
    await api(svc.url, 'POST', `/v2/schedules/${accepted.body.actionUuid}/cancel`);
    await receiver.waitFor(() => deliveredEvents().length === 1);
    expectAllSigned();
    const [failed] = deliveredEvents();
    expect(failed.type).toBe('optimization.failed');
    expect(failed.data).toMatchObject({ action_id: accepted.body.actionUuid, action_name: 'schedule', status: 'failed' });
    expect(failed.data.error.code).toBe('cancelled');
    expect(failed.data.project_id).toBeUndefined();
  });

  it('gives up after the window: no attempt once it has passed, logged and counted as abandoned', async () => {
    receiver.answerAll(503);
    const runner = new ScriptedRunner();
    const svc = await service({ runner, webhookSchedule: { firstWaitMs: 50, longestWaitMs: 100, windowMs: 600 } });
    const accepted = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    await runner.waitForStarts(1);
    await api(svc.url, 'POST', `/v2/schedules/${accepted.body.actionUuid}/cancel`);
    await receiver.waitFor(() => svc.logs.some((line) => line.includes('"event":"webhook_abandoned"')), 10_000);
    const tries = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(receiver.received).toHaveLength(tries);
    expectAllSigned();
    // Waits of 50 ms growing to 100 ms (±25 %) in a 600 ms window: several tries, then none.
    expect(tries).toBeGreaterThanOrEqual(4);
    expect(tries).toBeLessThanOrEqual(12);
    const last = receiver.received.at(-1)!.at - receiver.received[0]!.at;
    expect(last).toBeLessThan(600);
    const abandoned = JSON.parse(svc.logs.find((line) => line.includes('"event":"webhook_abandoned"'))!);
    expect(abandoned).toMatchObject({
      type: 'optimization.failed',
      attempts: tries,
      error: 'HTTP 503',
      receiver: new URL(receiver.url).origin,
    });
    expect(await deliveries(svc.url, 'failed')).toBe(tries - 1);
    expect(await deliveries(svc.url, 'abandoned')).toBe(1);
  });

  it('a redirect is not followed: it counts as a failed try', async () => {
    receiver.answerAll(307);
    const runner = new ScriptedRunner();
    const svc = await service({ runner, webhookSchedule: { firstWaitMs: 50, longestWaitMs: 50, windowMs: 200 } });
    const accepted = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    await runner.waitForStarts(1);
    await api(svc.url, 'POST', `/v2/schedules/${accepted.body.actionUuid}/cancel`);
    await receiver.waitFor(() => svc.logs.some((line) => line.includes('"event":"webhook_abandoned"')));
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    expect(new Set(receiver.received.map((hook) => hook.path))).toEqual(new Set(['/hooks/routeplan']));
    expect(svc.logs.find((line) => line.includes('"event":"webhook_abandoned"'))).toContain('"error":"HTTP 307"');
  });

  it('a shutdown cuts an attempt short without counting it: the next start delivers the event, with the same id', async () => {
    receiver.hold(1);
    const runner = new ScriptedRunner();
    const first = await service({ runner });
    const accepted = await api(first.url, 'POST', '/schedules', { body: smallOneOff() });
    await runner.waitForStarts(1);
    await api(first.url, 'POST', `/v2/schedules/${accepted.body.actionUuid}/cancel`);
    await receiver.waitFor(() => receiver.received.length === 1);
    const stopping = Date.now();
    await first.stop();
    expect(Date.now() - stopping).toBeLessThan(2_000);
    services.splice(services.indexOf(first), 1);

    await service({ runner: new ScriptedRunner(), dataDir: first.dataDir });
    await receiver.waitFor(() => deliveredEvents().length === 1);
    expectAllSigned();
    expect(receiver.received.map((hook) => [hook.eventId, hook.status])).toEqual([
      [receiver.received[0]!.eventId, null],
      [receiver.received[0]!.eventId, 204],
    ]);
  });

  it('410 Gone: that delivery is given up at once', async () => {
    receiver.answerAll(410);
    const runner = new ScriptedRunner();
    const svc = await service({ runner });
    const accepted = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    await runner.waitForStarts(1);
    await api(svc.url, 'POST', `/v2/schedules/${accepted.body.actionUuid}/cancel`);
    await receiver.waitFor(() => svc.logs.some((line) => line.includes('"event":"webhook_gone"')));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(1);
  });

  it('an event recorded while the receiver was down is delivered by the service started again on the same data directory', async () => {
    const port = Number(new URL(receiver.url).port);
    await receiver.close();
    const runner = new ScriptedRunner();
    // The first try finds nothing listening; the next is due 1.5 s later, when this service is gone.
    const first = await service({ runner, webhookSchedule: { firstWaitMs: 1_500, longestWaitMs: 1_500 } });
    const accepted = await api(first.url, 'POST', '/schedules', { body: smallOneOff() });
    await runner.waitForStarts(1);
    await api(first.url, 'POST', `/v2/schedules/${accepted.body.actionUuid}/cancel`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await first.stop();
    services.splice(services.indexOf(first), 1);

    receiver = await startWebhookReceiver(port);
    const again = await service({ runner: new ScriptedRunner(), dataDir: first.dataDir });
    await receiver.waitFor(() => deliveredEvents().length === 1, 10_000);
    expectAllSigned();
    expect(deliveredEvents()[0]).toMatchObject({ type: 'optimization.failed', data: { action_id: accepted.body.actionUuid } });
    expect(receiver.received).toHaveLength(1);
    expect(again.logs.some((line) => line.includes('"event":"started"'))).toBe(true);
  });
});

/** The project's dispatch record as the data directory keeps it. */
async function dispatchRecord(svc: TestService, projectId: string): Promise<any> {
  return JSON.parse(await readFile(join(svc.dataDir, 'dispatches', `${projectId}.json`), 'utf8'));
}

/** A project optimized and dispatched on `svc`, and Ana's first two stops with a way to report on them. */
async function dispatchedDay(
  svc: TestService,
): Promise<{ id: string; first: any; second: any; report: (stopId: string, body: unknown) => Promise<any> }> {
  const { id } = await optimizedProject(svc, { ...twoDriverProject(), settings: { time_zone: 'UTC' } });
  const dispatched = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: {} })).body;
  const ana = dispatched.drivers.find((driver: any) => driver.driver_name === 'Ana');
  const [first, second] = dispatched.stops.filter((stop: any) => stop.driver_id === ana.driver_id);
  const report = (stopId: string, body: unknown): Promise<any> =>
    api(svc.url, 'POST', `/drivers/${tokenOf(ana.url)}/stops/${stopId}`, { key: null, body });
  return { id, first, second, report };
}

describe('webhooks: every event told at least once (dispatch/notices.ts, webhooks/action-endings.ts)', () => {
  it('an event the store cannot take is kept with its change, the report answered, and told at the next sweep with the same id', async () => {
    // Retention of 10 s: a sweep every second, each telling what is left untold.
    const svc = await service({ runner: new InProcessRunner() as never, retentionMs: 10_000 });
    const { id, first, report } = await dispatchedDay(svc);
    await receiver.waitFor(() => deliveredEvents().some((event) => event.type === 'project.dispatched'));
    expect((await dispatchRecord(svc, id)).notices).toBeUndefined();

    // The webhook store cannot be written for a while: its directory is a file.
    const hooks = join(svc.dataDir, 'webhooks');
    await rm(hooks, { recursive: true, force: true });
    await writeFile(hooks, '');
    const answer = await report(first.stop_id, { status: 'failed', reason_code: 'refused' });
    expect(answer.status).toBe(200);
    const kept = (await dispatchRecord(svc, id)).notices;
    expect(kept[0]).toMatchObject({ kind: 'stopReported', event: { status: 'failed', stop: { stop_id: first.stop_id } } });
    expect(svc.logs.some((line) => line.includes('"event":"dispatch_event_not_told"'))).toBe(true);

    await rm(hooks);
    await mkdir(hooks);
    await receiver.waitFor(() => deliveredEvents().some((event) => event.type === 'stop.failed'), 10_000);
    const failed = deliveredEvents().find((event) => event.type === 'stop.failed');
    expect(failed).toMatchObject({ id: kept[0].event.notice.id, created_at: kept[0].event.notice.at, data: { stop_id: first.stop_id } });
    await receiver.waitFor(() => svc.logs.some((line) => line.includes('"event":"untold_events_told"')));
    expect((await dispatchRecord(svc, id)).notices).toBeUndefined();
    expectAllSigned();
  }, 30_000);

  it('a process that ended between writing a change and telling it: the next start tells its event', async () => {
    const first = await service({ runner: new InProcessRunner() as never });
    const { id, second } = await dispatchedDay(first);
    await receiver.waitFor(() => deliveredEvents().some((event) => event.type === 'project.dispatched'));
    await first.stop();
    services.splice(services.indexOf(first), 1);
    // What the end of a process leaves: the report written with its event, the event not yet told.
    const record = await dispatchRecord(first, id);
    const stop = record.stops.find((candidate: any) => candidate.stop_id === second.stop_id);
    stop.status = 'done';
    const notice = { id: randomUUID(), at: CLOCK.toISOString() };
    const event = { notice, owner: record.owner, project: record.project, dispatched_at: record.dispatched_at, at: CLOCK.toISOString() };
    const told = {
      ...event,
      stop: { stop_id: second.stop_id, name: stop.name, start_s: null, finish_s: null, changed: false },
      status: 'done',
      driver_id: stop.driver_id,
    };
    record.notices = [{ kind: 'stopReported', event: told }];
    await writeFile(join(first.dataDir, 'dispatches', `${id}.json`), JSON.stringify(record));

    const again = await service({ runner: new ScriptedRunner(), dataDir: first.dataDir });
    await receiver.waitFor(() => deliveredEvents().some((delivered) => delivered.type === 'stop.done'), 10_000);
    expect(deliveredEvents().find((delivered) => delivered.type === 'stop.done')).toMatchObject({
      id: notice.id,
      data: { project_id: id, stop_id: second.stop_id, status: 'done' },
    });
    expect((await dispatchRecord(again, id)).notices).toBeUndefined();
    expectAllSigned();
  }, 30_000);

  it('an optimization ending whose event the store cannot take: the cancel answered, the action kept marked, the event told at the next sweep, once', async () => {
    const runner = new ScriptedRunner();
    const svc = await service({ runner, retentionMs: 10_000 });
    const accepted = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    await runner.waitForStarts(1);
    const hooks = join(svc.dataDir, 'webhooks');
    await rm(hooks, { recursive: true, force: true });
    await writeFile(hooks, '');
    const cancelled = await api(svc.url, 'POST', `/v2/schedules/${accepted.body.actionUuid}/cancel`);
    expect(cancelled.status).toBeLessThan(300);
    const action = async (): Promise<any> =>
      JSON.parse(await readFile(join(svc.dataDir, 'actions', `${accepted.body.actionUuid}.json`), 'utf8'));
    expect(await action()).toMatchObject({ ending_untold: true, record: { status: 'failed' } });
    expect(svc.logs.some((line) => line.includes('"event":"webhook_not_recorded"'))).toBe(true);

    await rm(hooks);
    await mkdir(hooks);
    await receiver.waitFor(() => deliveredEvents().length === 1, 10_000);
    const [failed] = deliveredEvents();
    expect(failed).toMatchObject({ type: 'optimization.failed', created_at: (await action()).record.finished_at });
    expect(failed.data).toMatchObject({ action_id: accepted.body.actionUuid, error: { code: 'cancelled' } });
    await receiver.waitFor(() => svc.logs.some((line) => line.includes('"event":"untold_events_told"')));
    expect((await action()).ending_untold).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).toHaveLength(1);
    expectAllSigned();
  }, 30_000);
});
