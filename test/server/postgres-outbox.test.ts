/**
 * Customer e-mails from several `routeplan serve` processes on one PostgreSQL (issue 27, item 5):
 * the built binary, two processes, a real database (test/support/postgres.ts) and a real SMTP
 * server on loopback (test/support/mailbox.ts). Each message is queued once whichever process
 * queues it, sent by one process at a time, and one left by a killed sender is sent by the other.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databasePerTest, postgresUnavailable } from '../support/postgres.js';
import { startMailbox, type Mailbox } from '../support/mailbox.js';
import { api, type TestService } from './harness.js';
import { builtServersOnDatabase, type BuiltServer } from './built.js';
import { ownerOfPort } from '../support/port-owner.js';
import { optimizedProject, tokenOf } from './dispatch-harness.js';

const ENV = { ROUTEPLAN_SERVER_KEYS: 'key-alpha' };
/** The one stop of the two-driver project with an e-mail (dispatch-harness.ts). */
const CUSTOMER = 'north@example.com';

describe.skipIf(postgresUnavailable())('customer e-mails from two serve processes on one PostgreSQL (built binary)', () => {
  const db = databasePerTest();
  let smtp: Mailbox;
  beforeEach(async () => {
    smtp = await startMailbox();
  });
  afterEach(() => smtp.close());
  const serveOnDb = builtServersOnDatabase(db, ENV, 'outbox');
  const serve = (name: string): Promise<BuiltServer> =>
    serveOnDb(name, ['--smtp-url', smtp.url, '--smtp-from', 'deliveries@bakery.example']);

  /** Dispatches the optimized two-driver project on `server`: the project and the link of the customer's driver. */
  async function dispatchedDay(server: BuiltServer): Promise<{ id: string; stopId: string; driverToken: string }> {
    const { id } = await optimizedProject({ url: server.url } as TestService);
    const view = (await api(server.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    const project = (await api(server.url, 'GET', `/v1.0/project/${id}`)).body;
    const stopId = project.stops.find((stop: any) => stop.email === CUSTOMER).id as string;
    const driverId = view.stops.find((stop: any) => stop.stop_id === stopId).driver_id;
    const driver = view.drivers.find((entry: any) => entry.driver_id === driverId);
    return { id, stopId, driverToken: tokenOf(driver.url) };
  }

  async function messagesOn(server: BuiltServer, projectId: string): Promise<any[]> {
    return (await api(server.url, 'GET', `/v1.0/project/${projectId}`)).body.notifications.messages;
  }

  it('"delivered" twice: a stop done on one process, then undone and done on the other, e-mails its customer once', async () => {
    const [one, two] = [await serve('one'), await serve('two')];
    const day = await dispatchedDay(one);
    await smtp.waitFor(1);
    const report = (server: BuiltServer, status: string): Promise<unknown> =>
      api(server.url, 'POST', `/drivers/${day.driverToken}/stops/${day.stopId}`, {
        key: null,
        body: { status, at: '2026-11-23T08:41:00Z' },
      });
    await report(one, 'done');
    await smtp.waitFor(2);
    expect((await report(two, 'planned')) as any).toMatchObject({ status: 200 });
    expect((await report(two, 'done')) as any).toMatchObject({ status: 200 });
    // Longer than a process takes to look for messages queued elsewhere (once a second).
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    expect(smtp.received.map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/^Your delivery on 2026-11-23/),
      'Delivered: your order from Morning rounds',
    ]);
    for (const server of [one, two]) {
      const listed = await messagesOn(server, day.id);
      expect(listed.map((message) => [message.kind, message.status, message.attempts])).toEqual([
        ['delivered', 'sent', 1],
        ['planned', 'sent', 1],
      ]);
    }
  }, 120_000);

  it('kill -9 of the process sending a message: the other sends it, once', async () => {
    const [one, two] = [await serve('one'), await serve('two')];
    smtp.hold(CUSTOMER, 1);
    const day = await dispatchedDay(one);
    await waitUntil(() => smtp.heldPorts.length === 1, 15_000);
    const sender = (await ownerOfPort([one, two], smtp.heldPorts[0]!))!;
    const other = sender === one ? two : one;
    expect(sender).toBeDefined();
    await sender.kill9();
    const killedAt = Date.now();

    await smtp.waitFor(1, 15_000);
    const resentSeconds = (Date.now() - killedAt) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(smtp.received).toHaveLength(1);
    expect((smtp.received[0]!.to as any).value[0].address).toBe(CUSTOMER);
    expect(smtp.attempts.get(CUSTOMER)).toBe(2);
    // The killed attempt was never recorded: the one that counts is the other's.
    expect((await messagesOn(other, day.id)).map((message) => [message.kind, message.status, message.attempts])).toEqual([
      ['planned', 'sent', 1],
    ]);
    expect(resentSeconds).toBeLessThan(5);
    console.log(
      `kill -9 of the ${sender === one ? 'dispatching' : 'other'} process mid-send: the other sent the message ${resentSeconds.toFixed(1)} s later, once`,
    );
  }, 120_000);
});

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
