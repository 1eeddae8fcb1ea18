/**
 * Webhooks from several `routeplan serve` processes on one PostgreSQL (issue 28): the built binary,
 * two processes, a real database (test/support/postgres.ts) and a real receiver on loopback. Each
 * event, whichever process recorded it, reaches a healthy receiver exactly once; when the process
 * delivering one is killed (kill -9) mid-request, the other delivers it once its lease has run out;
 * an event the database could not take when its change was written is told by the next process to start.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/server/services/webhooks/index.js';
import { RETRY_SCHEDULE } from '../../src/server/services/webhooks/schedule.js';
import { databasePerTest, postgresUnavailable, withClient } from '../support/postgres.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { ownerOfPort } from '../support/port-owner.js';
import { api, type TestService } from './harness.js';
import { builtServersOnDatabase, type BuiltServer } from './built.js';
import { optimizedProject, tokenOf } from './dispatch-harness.js';

const SECRET = 'whsec-processes-0123456789';
const ENV = { ROUTEPLAN_SERVER_KEYS: 'key-alpha', ROUTEPLAN_WEBHOOK_SECRET: SECRET };

describe.skipIf(postgresUnavailable())('webhooks from two serve processes on one PostgreSQL (built binary)', () => {
  const db = databasePerTest();
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(() => receiver.close());
  const serveOnDb = builtServersOnDatabase(db, ENV, 'webhooks');
  const serve = (name: string): Promise<BuiltServer> => serveOnDb(name, ['--time-limit', '0.5', '--webhook-url', receiver.url]);

  function expectSigned(): void {
    for (const hook of receiver.received) expect(verifySignature(SECRET, hook.signature, hook.body, new Date(hook.at))).toBe(true);
  }

  it('a day on two processes: every event, recorded by either, reaches a healthy receiver exactly once', async () => {
    const [one, two] = [await serve('one'), await serve('two')];
    const { id } = await optimizedProject({ url: one.url } as TestService);
    const view = (await api(two.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    for (const [i, stop] of (view.stops as any[]).entries()) {
      const driver = view.drivers.find((entry: any) => entry.driver_id === stop.driver_id);
      const body = i % 2 === 0 ? { status: 'done' } : { status: 'failed', reason_code: 'refused' };
      const reported = await api([one, two][i % 2]!.url, 'POST', `/drivers/${tokenOf(driver.url)}/stops/${stop.stop_id}`, {
        key: null,
        body,
      });
      expect(reported.status).toBe(200);
    }
    const stops = view.stops.length as number;
    await receiver.waitFor(() => receiver.deliveredIds().size >= 2 + stops, 20_000);
    // Longer than a process takes to look for deliveries recorded elsewhere (once a second).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expectSigned();
    const ids = receiver.received.map((hook) => hook.eventId);
    expect(new Set(ids).size).toBe(ids.length);
    const types = receiver.received.map((hook) => hook.type);
    expect(types.filter((type) => type === 'optimization.finished')).toHaveLength(1);
    expect(types.filter((type) => type === 'project.dispatched')).toHaveLength(1);
    expect(types.filter((type) => type === 'stop.done')).toHaveLength(Math.ceil(stops / 2));
    expect(types.filter((type) => type === 'stop.failed')).toHaveLength(Math.floor(stops / 2));
    const senders = new Set(receiver.received.map((hook) => hook.remotePort));
    console.log(`${receiver.received.length} events from two processes, each delivered once (${senders.size} sending connections)`);
  }, 120_000);

  it('kill -9 of the process delivering an event: the other delivers it after the lease, and once', async () => {
    const [one, two] = [await serve('one'), await serve('two')];
    receiver.hold(1);
    const { actionUuid } = await optimizedProject({ url: one.url } as TestService);
    await receiver.waitFor(() => receiver.received.length === 1, 15_000);
    const held = receiver.received[0]!;
    const sender = (await ownerOfPort([one, two], held.remotePort))!;
    expect(sender).toBeDefined();
    const other = sender === one ? two : one;
    await sender.kill9();
    const killedAt = Date.now();

    await receiver.waitFor(() => receiver.deliveredIds().size === 1, 30_000);
    const seconds = (Date.now() - killedAt) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expectSigned();
    expect(receiver.received.map((hook) => [hook.eventId, hook.type])).toEqual([
      [held.eventId, 'optimization.finished'],
      [held.eventId, 'optimization.finished'],
    ]);
    expect(JSON.parse(receiver.received[1]!.body).data.action_id).toBe(actionUuid);
    expect(other.child.exitCode).toBeNull();
    // Not before the killed attempt's lease ran out (it was taken a moment before the kill), and soon after.
    expect(seconds).toBeGreaterThan(RETRY_SCHEDULE.leaseMs / 1000 - 5);
    expect(seconds).toBeLessThan(RETRY_SCHEDULE.leaseMs / 1000 + 5);
    console.log(
      `kill -9 of the process delivering optimization.finished: the other delivered it ${seconds.toFixed(1)} s later (lease ${RETRY_SCHEDULE.leaseMs / 1000} s), once`,
    );
  }, 120_000);

  it('a report whose event the webhook table could not take: answered, kept with the dispatch, told by the next process to start', async () => {
    const one = await serve('one');
    const { id } = await optimizedProject({ url: one.url } as TestService);
    const view = (await api(one.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    await receiver.waitFor(() => receiver.received.some((hook) => hook.type === 'project.dispatched'), 20_000);
    const stop = view.stops[0];
    const driver = view.drivers.find((entry: any) => entry.driver_id === stop.driver_id);
    const table = (name: string): Promise<unknown> => withClient(db().url, (client) => client.query(`ALTER TABLE ${name}`));

    await table('routeplan_webhooks RENAME TO routeplan_webhooks_away');
    const reported = await api(one.url, 'POST', `/drivers/${tokenOf(driver.url)}/stops/${stop.stop_id}`, {
      key: null,
      body: { status: 'done' },
    });
    await table('routeplan_webhooks_away RENAME TO routeplan_webhooks');
    expect(reported.status).toBe(200);
    const kept = await withClient(db().url, (client) =>
      client.query(`SELECT body->'notices' AS notices FROM routeplan_records WHERE collection = 'dispatches' AND id = $1`, [id]),
    );
    const notices = kept.rows[0].notices;
    expect(notices.map((notice: any) => notice.kind)).toContain('stopReported');
    const noticeId = notices.find((notice: any) => notice.kind === 'stopReported').event.notice.id;

    await serve('two');
    await receiver.waitFor(() => receiver.received.some((hook) => hook.type === 'stop.done' && hook.status === 204), 20_000);
    expect(receiver.received.filter((hook) => hook.type === 'stop.done').map((hook) => hook.eventId)).toEqual([noticeId]);
    expectSigned();
  }, 120_000);
});
