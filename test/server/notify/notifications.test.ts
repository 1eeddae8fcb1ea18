/**
 * Customer e-mails through a real SMTP server on loopback (smtp-server), from the real service:
 * the promised window (quarter hours) and the stop's own tracking link on dispatch to each stop with an e-mail and nobody else, one delivered message
 * per stop, nothing on a re-dispatch that moved nothing, retries of a temporary refusal, a permanent
 * refusal failed at once, a queued message sent after a restart, and nothing at all without SMTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api, removeDir, startTestService, type TestService } from '../harness.js';
import { InProcessRunner, optimize, optimizedProject, tokenOf, twoDriverProject } from '../dispatch-harness.js';
import { startMailbox, type Mailbox } from '../../support/mailbox.js';

const services: TestService[] = [];
const mailboxes: Mailbox[] = [];

afterEach(async () => {
  for (const started of services.splice(0)) {
    await started.stop();
    await removeDir(started.dataDir);
  }
  for (const mailbox of mailboxes.splice(0)) await mailbox.close();
});

async function mailbox(port = 0): Promise<Mailbox> {
  const started = await startMailbox(port);
  mailboxes.push(started);
  return started;
}

async function service(smtpUrl: string | null, dataDir?: string): Promise<TestService> {
  const started = await startTestService({
    runner: new InProcessRunner() as never,
    ...(smtpUrl ? { smtp: { url: smtpUrl, from: 'deliveries@bakery.example' } } : {}),
    ...(dataDir ? { dataDir } : {}),
  });
  services.push(started);
  return started;
}

/** The two-driver project with an e-mail on three of its four stops. */
function projectWithEmails(): Record<string, unknown> {
  const document = twoDriverProject();
  const stops = document.stops as Record<string, unknown>[];
  stops[1]!.email = 'north-cafe@example.com';
  stops[2]!.email = 'south-bakery@example.com';
  delete stops[3]!.email;
  return document;
}

/** "between 07:45 and 09:00": the arrival ± 30 minutes, out to the quarter hours around it (the default --eta-margin). */
function promisedText(arrivalS: number): string {
  const clock = (seconds: number): string =>
    `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}`;
  return `between ${clock(Math.floor((arrivalS - 1800) / 900) * 900)} and ${clock(Math.ceil((arrivalS + 1800) / 900) * 900)}`;
}

async function messagesOf(svc: TestService, projectId: string): Promise<any> {
  return (await api(svc.url, 'GET', `/v1.0/project/${projectId}`)).body.notifications;
}

describe('customer e-mails', () => {
  it('on dispatch, each stop with an e-mail gets its own planned window, and only its own stop', async () => {
    const smtp = await mailbox();
    const svc = await service(smtp.url);
    const { id, actionUuid } = await optimizedProject(svc, projectWithEmails());
    const dispatched = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    await smtp.waitFor(3);
    const plan = (await api(svc.url, 'GET', `/v2/schedules/${actionUuid}/solution`)).body;
    const stopIds = new Map((await api(svc.url, 'GET', `/v1.0/project/${id}`)).body.stops.map((stop: any) => [stop.name, stop.id]));
    const visits = plan.routes.flatMap((route: any) => route.visits.filter((visit: any) => visit.kind === 'stop'));
    const byRecipient = new Map(smtp.received.map((mail) => [(mail.to as any).value[0].address, mail]));
    expect([...byRecipient.keys()].sort()).toEqual(['north-cafe@example.com', 'north@example.com', 'south-bakery@example.com']);
    for (const [address, name] of [
      ['north@example.com', 'North bakery'],
      ['north-cafe@example.com', 'North cafe'],
      ['south-bakery@example.com', 'South bakery'],
    ] as const) {
      const mail = byRecipient.get(address)!;
      const visit = visits.find((entry: any) => entry.stop === name);
      expect((mail.from as any).value[0].address).toBe('deliveries@bakery.example');
      expect((mail.to as any).value).toHaveLength(1);
      const promised = promisedText(visit.arrival_s);
      expect(mail.subject).toBe(`Your delivery on 2026-11-23: ${promised}`);
      expect(mail.text).toContain(`Your delivery from Morning rounds is planned on 2026-11-23, ${promised}.`);
      expect(mail.text).toContain(`Delivery address: ${name} street 1, Lyon`);
      const tracking = dispatched.stops.find((stop: any) => stop.stop_id === stopIds.get(name)).tracking_url;
      expect(tracking).toMatch(new RegExp(`^${svc.url}/track/[A-Za-z0-9_-]{32}$`));
      expect(mail.text).toContain(`Follow your delivery on the day: ${tracking}`);
      for (const other of ['North bakery', 'North cafe', 'South bakery', 'South cafe'].filter((entry) => entry !== name)) {
        expect(`${mail.subject}\n${mail.text}`).not.toContain(other);
      }
    }
    await expect
      .poll(async () => (await messagesOf(svc, id)).messages.map((message: any) => message.status))
      .toEqual(['sent', 'sent', 'sent']);
    const notifications = await messagesOf(svc, id);
    expect(notifications.enabled).toBe(true);
    expect(notifications.messages[0]).toMatchObject({ kind: 'planned', attempts: 1 });
    expect(notifications.messages[0].text).toBeUndefined();
  });

  it('sends one delivered message when the driver marks the stop done, never a second', async () => {
    const smtp = await mailbox();
    const svc = await service(smtp.url);
    const { id } = await optimizedProject(svc, projectWithEmails());
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    await smtp.waitFor(3);
    const project = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body;
    const north = project.stops.find((stop: any) => stop.name === 'North bakery');
    const driver = view.drivers.find(
      (entry: any) => entry.driver_id === view.stops.find((stop: any) => stop.stop_id === north.id).driver_id,
    );
    const report = (status: string): ReturnType<typeof api> =>
      api(svc.url, 'POST', `/drivers/${tokenOf(driver.url)}/stops/${north.id}`, {
        key: null,
        body: { status, at: '2026-11-23T08:41:00Z' },
      });
    await report('done');
    await smtp.waitFor(4);
    const delivered = smtp.received[3]!;
    expect((delivered.to as any).value[0].address).toBe('north@example.com');
    expect(delivered.subject).toBe('Delivered: your order from Morning rounds');
    expect(delivered.text).toContain('was made at 08:41 UTC on 2026-11-23');
    await report('planned');
    await report('done');
    await report('done');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(4);
    expect((await messagesOf(svc, id)).messages.filter((message: any) => message.kind === 'delivered')).toHaveLength(1);
  });

  it('sends nothing on a re-dispatch that moved no stop', async () => {
    const smtp = await mailbox();
    const svc = await service(smtp.url);
    const { id } = await optimizedProject(svc, projectWithEmails());
    await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`);
    await smtp.waitFor(3);
    await optimize(svc, id);
    const again = await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: { redispatch: true } });
    expect(again.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(3);
  });

  it('retries a temporary refusal (4xx) and fails a permanent one (5xx) at once, recording each on the project', async () => {
    const smtp = await mailbox();
    smtp.refuse('north@example.com', 451, 1);
    smtp.refuse('north-cafe@example.com', 550, 5);
    const svc = await service(smtp.url);
    const { id } = await optimizedProject(svc, projectWithEmails());
    await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`);
    await smtp.waitFor(2, 10_000);
    await expect
      .poll(async () => (await messagesOf(svc, id)).messages.map((message: any) => [message.to, message.status, message.attempts]).sort(), {
        timeout: 10_000,
      })
      .toEqual([
        ['north-cafe@example.com', 'failed', 1],
        ['north@example.com', 'sent', 2],
        ['south-bakery@example.com', 'sent', 1],
      ]);
    const failed = (await messagesOf(svc, id)).messages.find((message: any) => message.status === 'failed');
    expect(failed.error).toMatch(/^550 refused for the test/);
    expect(smtp.attempts.get('north-cafe@example.com')).toBe(1);
  });

  it('keeps a message the SMTP server could not take through a restart, and sends it once the server is back', async () => {
    const down = await mailbox();
    const port = down.port;
    await down.close();
    mailboxes.splice(mailboxes.indexOf(down), 1);
    const svc = await service(`smtp://127.0.0.1:${port}`);
    const { id } = await optimizedProject(svc, projectWithEmails());
    await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`);
    const tried = async (): Promise<string[]> =>
      (await messagesOf(svc, id)).messages.map(
        (message: any) => `${message.status} ${message.attempts >= 1 && /ECONNREFUSED/.test(message.error ?? '')}`,
      );
    await expect.poll(tried).toEqual(['queued true', 'queued true', 'queued true']);
    await svc.stop();
    const back = await mailbox(port);
    const restarted = await service(`smtp://127.0.0.1:${port}`, svc.dataDir);
    await back.waitFor(3, 15_000);
    await expect
      .poll(async () => (await messagesOf(restarted, id)).messages.map((message: any) => message.status))
      .toEqual(['sent', 'sent', 'sent']);
  });

  it('sends nothing and says so without SMTP configured', async () => {
    const smtp = await mailbox();
    const svc = await service(null);
    const { id } = await optimizedProject(svc, projectWithEmails());
    const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
    const stop = view.stops[0];
    const driver = view.drivers.find((entry: any) => entry.driver_id === stop.driver_id);
    await api(svc.url, 'POST', `/drivers/${tokenOf(driver.url)}/stops/${stop.stop_id}`, { key: null, body: { status: 'done' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(0);
    expect(await messagesOf(svc, id)).toEqual({ enabled: false, messages: [] });
  });
});
