/**
 * Revised messages (decisions.md, "The live day"), from the real service through a real SMTP server
 * on loopback: the live re-timing's etaChanged events (built here, as the dispatch sends them) give
 * one revised e-mail when a stop's estimate leaves its promised window, with the new window; none
 * inside it, none a second time within the hour, none for a done stop or one without an e-mail.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, servicesStoppedAfterEach, type TestService } from '../harness.js';
import { InProcessRunner, optimizedProject, tokenOf, twoDriverProject } from '../dispatch-harness.js';
import { startMailbox, type Mailbox } from '../../support/mailbox.js';
import type { DispatchListener, DispatchedStop } from '../../../src/server/services/dispatch/events.js';

let clock = new Date('2026-11-23T07:00:00Z');
let listener: DispatchListener;
let smtp: Mailbox;
const start = servicesStoppedAfterEach(() => ({
  runner: new InProcessRunner() as never,
  now: () => clock,
  smtp: { url: smtp.url, from: 'deliveries@bakery.example' },
  tapDispatchListener: (tapped: DispatchListener) => (listener = tapped),
}));

afterEach(async () => {
  await smtp?.close();
});

interface Day {
  svc: TestService;
  id: string;
  view: any;
  project: any;
}

/** The two-driver project, North bakery and South bakery with an e-mail, dispatched at 07:00 UTC. */
async function dispatchedDay(options: { retentionMs?: number } = {}): Promise<Day> {
  clock = new Date('2026-11-23T07:00:00Z');
  smtp = await startMailbox();
  const svc = await start(options);
  const document = twoDriverProject();
  (document.stops as Record<string, unknown>[])[2]!.email = 'south@example.com';
  const { id } = await optimizedProject(svc, document);
  const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
  await smtp.waitFor(2);
  const project = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body;
  return { svc, id, view, project };
}

/** A stop as the dispatch's events carry it. */
function eventStop(day: Day, name: string): DispatchedStop {
  const source = day.project.stops.find((stop: any) => stop.name === name);
  const stop = day.view.stops.find((entry: any) => entry.stop_id === source.id);
  return {
    stop_id: source.id,
    name,
    address: source.location.address,
    ...(source.email ? { email: source.email } : {}),
    start_s: null,
    finish_s: null,
    changed: false,
    status: stop.status,
    promised: stop.promised,
    tracking_token: stop.tracking_url.split('/track/')[1],
  };
}

function etaChanged(day: Day, ...stops: [stop: DispatchedStop, eta_s: number][]): void {
  void listener.etaChanged({
    notice: { id: randomUUID(), at: new Date().toISOString() },
    owner: day.project.owner ?? 'key-alpha',
    project: { id: day.id, name: 'Morning rounds', date: '2026-11-23' },
    stops: stops.map(([stop, eta_s]) => ({ stop, eta_s, late: false })),
  });
}

async function promiseOf(day: Day, name: string): Promise<{ start_s: number; end_s: number }> {
  const stopId = day.project.stops.find((stop: any) => stop.name === name).id;
  return (await api(day.svc.url, 'GET', `/v1.0/project/${day.id}/dispatch`)).body.stops.find((stop: any) => stop.stop_id === stopId)
    .promised;
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 400));
const hhmm = (seconds: number): string =>
  `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}`;

describe('revised messages', () => {
  it('send one when the estimate leaves the promised window, with the new window, and none while it stays inside', async () => {
    const day = await dispatchedDay();
    const north = eventStop(day, 'North bakery');
    const promised = north.promised!;
    etaChanged(day, [north, promised.start_s], [north, promised.end_s]);
    await settle();
    expect(smtp.received).toHaveLength(2);

    const late = promised.end_s + 40 * 60; // 40 minutes past the promised end
    etaChanged(day, [north, late]);
    await smtp.waitFor(3);
    const revised = smtp.received[2]!;
    const window = `between ${hhmm(Math.floor((late - 1800) / 900) * 900)} and ${hhmm(Math.ceil((late + 1800) / 900) * 900)}`;
    expect((revised.to as any).value[0].address).toBe('north@example.com');
    expect(revised.subject).toBe(`New time for your delivery on 2026-11-23: ${window}`);
    expect(revised.text).toContain(`will not come between ${hhmm(promised.start_s)} and ${hhmm(promised.end_s)} as we wrote:`);
    expect(revised.text).toContain(`it is now expected ${window}.`);
    expect(revised.text).toContain(`Follow your delivery: ${day.svc.url}/track/${north.tracking_token}`);
    expect(`${revised.subject}\n${revised.text}`).not.toMatch(/South|cafe/);
    // What was promised is what later checks compare with, and what the tracking page shows.
    const now = await promiseOf(day, 'North bakery');
    expect(now).toEqual({ start_s: Math.floor((late - 1800) / 900) * 900, end_s: Math.ceil((late + 1800) / 900) * 900 });
    expect((await api(day.svc.url, 'GET', `/track/${north.tracking_token}/status`, { key: null })).body.promised).toEqual(now);
    await expect
      .poll(async () => (await api(day.svc.url, 'GET', `/v1.0/project/${day.id}`)).body.notifications.messages.map((m: any) => m.kind))
      .toEqual(['revised', 'planned', 'planned']);
  });

  it('send at most one per stop per hour, even when the estimate keeps moving', async () => {
    const day = await dispatchedDay();
    const north = eventStop(day, 'North bakery');
    const first = north.promised!.end_s + 3600;
    etaChanged(day, [north, first]);
    await smtp.waitFor(3);
    clock = new Date(clock.getTime() + 59 * 60_000);
    etaChanged(day, [north, first + 3600]);
    await settle();
    expect(smtp.received).toHaveLength(3);
    clock = new Date(clock.getTime() + 61 * 60_000);
    etaChanged(day, [north, first + 3600]);
    await smtp.waitFor(4);
    expect(smtp.received[3]!.subject).toMatch(/^New time for your delivery/);
    etaChanged(day, [north, first + 7200]);
    await settle();
    expect(smtp.received).toHaveLength(4);
  });

  it('on a re-dispatch, go to the customers whose promised window changed (a new stop gets its planned window), no one else', async () => {
    const day = await dispatchedDay();
    const north = eventStop(day, 'North bakery');
    const south = eventStop(day, 'South bakery');
    const newcomer = { ...eventStop(day, 'South cafe'), email: 'cafe@example.com' };
    const moved = { start_s: north.promised!.start_s + 3600, end_s: north.promised!.end_s + 3600 };
    void listener.dispatched({
      notice: { id: randomUUID(), at: new Date().toISOString() },
      owner: 'key-alpha',
      project: { id: day.id, name: 'Morning rounds', date: '2026-11-23' },
      dispatched_at: new Date(clock.getTime() + 60_000).toISOString(),
      redispatch: true,
      stops: [
        { ...north, changed: true, status: 'planned', promised: moved, previous_promised: north.promised! },
        { ...south, changed: true, status: 'planned', previous_promised: south.promised! }, // another driver, the same window
        { ...newcomer, changed: true, status: 'planned' },
      ],
    });
    await smtp.waitFor(4);
    await settle();
    const [revised, planned] = smtp.received.slice(2).sort((a, b) => String(a.subject).localeCompare(String(b.subject)));
    expect(smtp.received).toHaveLength(4);
    expect((revised!.to as any).value[0].address).toBe('north@example.com');
    expect(revised!.subject).toBe(`New time for your delivery on 2026-11-23: between ${hhmm(moved.start_s)} and ${hhmm(moved.end_s)}`);
    expect(revised!.text).toContain(
      `will not come between ${hhmm(north.promised!.start_s)} and ${hhmm(north.promised!.end_s)} as we wrote:`,
    );
    expect((planned!.to as any).value[0].address).toBe('cafe@example.com');
    expect(planned!.subject).toMatch(/^Your delivery on 2026-11-23: between/);
  });

  it('send none for a stop already done, nor for a stop without an e-mail (whose promise stays)', async () => {
    const day = await dispatchedDay();
    const south = eventStop(day, 'South bakery');
    const driver = day.view.drivers.find(
      (entry: any) => entry.driver_id === day.view.stops.find((stop: any) => stop.stop_id === south.stop_id).driver_id,
    );
    await api(day.svc.url, 'POST', `/drivers/${tokenOf(driver.url)}/stops/${south.stop_id}`, { key: null, body: { status: 'done' } });
    await smtp.waitFor(3); // the delivered message
    etaChanged(day, [south, south.promised!.end_s + 3600]);
    const cafe = eventStop(day, 'South cafe');
    const before = await promiseOf(day, 'South cafe');
    etaChanged(day, [cafe, cafe.promised!.end_s + 3600]);
    await settle();
    expect(smtp.received.map((mail) => mail.subject)).not.toContainEqual(expect.stringMatching(/^New time/));
    expect(await promiseOf(day, 'South cafe')).toEqual(before);
  });

  it('a revision whose message the outbox cannot take keeps the new promise with its event, and the message goes out at the next sweep, once', async () => {
    // Retention of 10 s: a sweep every second, each telling what the dispatch left untold.
    const day = await dispatchedDay({ retentionMs: 10_000 });
    const north = eventStop(day, 'North bakery');
    const late = north.promised!.end_s + 40 * 60;
    const window = { start_s: Math.floor((late - 1800) / 900) * 900, end_s: Math.ceil((late + 1800) / 900) * 900 };
    // The outbox cannot be written for a while: its directory is a file.
    const outbox = join(day.svc.dataDir, 'outbox');
    await rm(outbox, { recursive: true, force: true });
    await writeFile(outbox, '');
    etaChanged(day, [north, late]);
    await expect.poll(() => promiseOf(day, 'North bakery')).toEqual(window);
    await expect.poll(async () => (await dispatchRecord(day)).notices?.map((notice: any) => notice.kind)).toEqual(['promiseRevised']);
    expect(day.svc.logs.some((line) => line.includes('"event":"dispatch_event_not_told"'))).toBe(true);

    await rm(outbox);
    await mkdir(outbox);
    await smtp.waitFor(3, 10_000);
    expect(smtp.received[2]!.subject).toBe(
      `New time for your delivery on 2026-11-23: between ${hhmm(window.start_s)} and ${hhmm(window.end_s)}`,
    );
    expect(smtp.received[2]!.text).toContain(
      `will not come between ${hhmm(north.promised!.start_s)} and ${hhmm(north.promised!.end_s)} as we wrote:`,
    );
    await expect.poll(async () => (await dispatchRecord(day)).notices).toBeUndefined();
    await settle();
    expect(smtp.received).toHaveLength(3);
  }, 30_000);
});

async function dispatchRecord(day: Day): Promise<any> {
  return JSON.parse(await readFile(join(day.svc.dataDir, 'dispatches', `${day.id}.json`), 'utf8'));
}
