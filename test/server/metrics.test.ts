/**
 * GET /metrics (issue 28, "Metrics and logs"), scraped for real and parsed as a scraper reads it: the
 * HTTP requests by route pattern and status with their durations, solves by outcome, the queue read
 * from the store at each scrape (the data directory here; PostgreSQL in postgres-observe.test.ts),
 * customer e-mails sent and failed through a real SMTP server, each service's own registry, and who
 * may scrape: loopback clients only without --metrics-token, the Bearer token with it.
 */
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { api, cannedPlan, ScriptedRunner, servicesStoppedAfterEach, smallOneOff, type TestService } from './harness.js';
import { optimizedProject, twoDriverProject } from './dispatch-harness.js';
import { parseExposition, valueOf, type Sample } from '../support/prometheus.js';
import { startMailbox } from '../support/mailbox.js';
import { checkedPlanOf } from '../support/checked-plan.js';
import { serveOptionsFrom } from '../../src/cli/commands/serve.js';
import type { SolveRunner } from '../../src/server/services/solve-runner.js';
import type { SolveJob, SolveOutcome } from '../../src/server/services/job.js';

const start = servicesStoppedAfterEach();

async function scrape(base: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await fetch(`${base}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await response.text());
}

/** An address of this machine that is not loopback, for a client the service must not take for a local one. */
function outsideAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;
}

function portOf(svc: TestService): string {
  return new URL(svc.url).port;
}

/** The real solver, each plan passed through the independent checker. */
class CheckedRunner implements SolveRunner {
  async run(job: SolveJob): Promise<SolveOutcome> {
    return { ok: true, plan: await checkedPlanOf(job.document) };
  }
}

describe('GET /metrics', () => {
  it('counts requests by registered route pattern, method and status, never by raw URL, with their durations', async () => {
    const svc = await start();
    const accepted = await api(svc.url, 'POST', '/schedules', { body: smallOneOff() });
    const id = accepted.body.actionUuid as string;
    await api(svc.url, 'GET', `/v2/schedules/${id}`);
    await api(svc.url, 'GET', `/v2/schedules/${id}`);
    await api(svc.url, 'GET', '/v2/schedules/00000000-0000-4000-8000-000000000000');
    await api(svc.url, 'GET', `/v2/schedules/${id}`, { key: 'not-a-key' });
    await api(svc.url, 'GET', `/no/such/${id}`);
    const samples = await scrape(svc.url);
    const requests = (route: string, method: string, status: string): number | undefined =>
      valueOf(samples, 'routeplan_http_requests_total', { route, method, status });
    expect(requests('/schedules', 'POST', '202')).toBe(1);
    expect(requests('/v2/schedules/:id', 'GET', '200')).toBe(2);
    expect(requests('/v2/schedules/:id', 'GET', '404')).toBe(1);
    expect(requests('/v2/schedules/:id', 'GET', '401')).toBe(1);
    expect(requests('unmatched', 'GET', '404')).toBe(1);
    expect(samples.filter((sample) => Object.values(sample.labels).some((value) => value.includes(id)))).toEqual([]);
    const count = valueOf(samples, 'routeplan_http_request_duration_seconds_count', { route: '/v2/schedules/:id', method: 'GET' });
    expect(count).toBe(4);
    expect(valueOf(samples, 'routeplan_http_request_duration_seconds_sum', { route: '/v2/schedules/:id', method: 'GET' })).toBeGreaterThan(
      0,
    );
    const inf = valueOf(samples, 'routeplan_http_request_duration_seconds_bucket', { route: '/schedules', method: 'POST', le: '+Inf' });
    expect(inf).toBe(1);
    // The process's own figures come along (prom-client's default metrics).
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('each service counts only its own: two in one process keep apart registries', async () => {
    const a = await start();
    const b = await start();
    await api(a.url, 'GET', '/v1.0/projects');
    await api(a.url, 'GET', '/v1.0/projects');
    expect(valueOf(await scrape(a.url), 'routeplan_http_requests_total', { route: '/v1.0/projects', status: '200' })).toBe(2);
    expect(valueOf(await scrape(b.url), 'routeplan_http_requests_total', { route: '/v1.0/projects', status: '200' })).toBeUndefined();
  });

  it('reads the queue from the store at each scrape (waiting, running, the oldest wait) and counts solves by outcome', async () => {
    const runner = new ScriptedRunner();
    const svc = await start({ runner, concurrency: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await api(svc.url, 'POST', '/schedules', { body: smallOneOff() })).body.actionUuid);
    await runner.waitForStarts(1);
    let samples = await scrape(svc.url);
    expect(valueOf(samples, 'routeplan_queue_waiting')).toBe(2);
    expect(valueOf(samples, 'routeplan_queue_running')).toBe(1);
    expect(valueOf(samples, 'routeplan_queue_oldest_waiting_seconds')).toBeLessThan(1);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    samples = await scrape(svc.url);
    expect(valueOf(samples, 'routeplan_queue_oldest_waiting_seconds')).toBeGreaterThanOrEqual(1.2);

    runner.finishNext({ ok: true, plan: cannedPlan('first') });
    await runner.waitForStarts(2);
    expect((await api(svc.url, 'POST', `/v2/schedules/${ids[1]}/cancel`)).status).toBe(200);
    await runner.waitForStarts(3);
    runner.finishNext({ ok: false, error: { code: 'no_solution', message: 'nothing fits', details: [] } });
    await expect.poll(async () => valueOf(await scrape(svc.url), 'routeplan_solves_total', { outcome: 'failed' })).toBe(1);
    samples = await scrape(svc.url);
    expect(valueOf(samples, 'routeplan_solves_total', { outcome: 'finished' })).toBe(1);
    expect(valueOf(samples, 'routeplan_solves_total', { outcome: 'cancelled' })).toBe(1);
    expect(valueOf(samples, 'routeplan_solve_duration_seconds_count', { outcome: 'finished' })).toBe(1);
    expect(valueOf(samples, 'routeplan_solve_duration_seconds_sum', { outcome: 'finished' })).toBeGreaterThanOrEqual(1.2);
    expect(valueOf(samples, 'routeplan_queue_waiting')).toBe(0);
    expect(valueOf(samples, 'routeplan_queue_running')).toBe(0);
    expect(valueOf(samples, 'routeplan_queue_oldest_waiting_seconds')).toBe(0);
    expect(valueOf(samples, 'routeplan_webhook_deliveries_total')).toBeUndefined();
  });

  it('counts customer e-mails sent, and those given up on, through a real SMTP server', async () => {
    const smtp = await startMailbox();
    try {
      const svc = await start({ runner: new CheckedRunner() as never, smtp: { url: smtp.url, from: 'deliveries@bakery.example' } });
      const document = twoDriverProject();
      (document.stops as Record<string, unknown>[])[1]!.email = 'north-cafe@example.com';
      smtp.refuse('north-cafe@example.com', 550, 1);
      const { id } = await optimizedProject(svc, document);
      expect((await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).status).toBe(201);
      // Two senders work at once: either outcome may be counted first.
      const emails = async (): Promise<(number | undefined)[]> => {
        const samples = await scrape(svc.url);
        return ['sent', 'failed'].map((outcome) => valueOf(samples, 'routeplan_emails_total', { outcome }));
      };
      await expect.poll(emails).toEqual([1, 1]);
      expect(smtp.received).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });

  it('without --metrics-token answers loopback clients only, judged by the socket whatever X-Forwarded-For says', async () => {
    const outside = outsideAddress();
    expect(outside, 'this machine needs a non-loopback IPv4 address for this test').toBeDefined();
    const svc = await start({ host: '0.0.0.0', trustProxyHops: 1 });
    expect((await fetch(`http://127.0.0.1:${portOf(svc)}/metrics`)).status).toBe(200);
    const far = await fetch(`http://${outside}:${portOf(svc)}/metrics`, { headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(far.status).toBe(403);
    expect(((await far.json()) as any).error.code).toBe('forbidden');
  });

  it('with --metrics-token asks every client, loopback too, for that Bearer token', async () => {
    const svc = await start({ host: '0.0.0.0', metricsToken: 'scrape-me-7f3a' });
    const local = `http://127.0.0.1:${portOf(svc)}/metrics`;
    for (const authorization of [undefined, 'Bearer scrape-me-7f3b', 'Bearer key-alpha', 'Basic scrape-me-7f3a']) {
      const refused = await fetch(local, { headers: authorization ? { authorization } : {} });
      expect(refused.status, authorization).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await fetch(local, { headers: { authorization: 'bearer scrape-me-7f3a' } })).status).toBe(200);
    const outside = outsideAddress();
    const far = await fetch(`http://${outside}:${portOf(svc)}/metrics`, { headers: { authorization: 'Bearer scrape-me-7f3a' } });
    expect(far.status).toBe(200);
  });

  it('wrong tokens count toward the limit on wrong keys of their address: then even the right one waits', async () => {
    const svc = await start({ metricsToken: 'scrape-me-7f3a', guessLimits: { maxFailures: 3 } });
    for (let i = 0; i < 3; i += 1) expect((await scrape401(svc, 'Bearer wrong-token')).status).toBe(401);
    const limited = await fetch(`${svc.url}/metrics`, { headers: { authorization: 'Bearer scrape-me-7f3a' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

async function scrape401(svc: TestService, authorization: string): Promise<Response> {
  return fetch(`${svc.url}/metrics`, { headers: { authorization } });
}

describe('--metrics-token', () => {
  it('is read from the flag or ROUTEPLAN_METRICS_TOKEN, and one with a space is refused', async () => {
    expect((await serveOptionsFrom({}, { ROUTEPLAN_METRICS_TOKEN: 'from-env' })).metricsToken).toBe('from-env');
    expect((await serveOptionsFrom({ metricsToken: 'from-flag' }, { ROUTEPLAN_METRICS_TOKEN: 'from-env' })).metricsToken).toBe('from-flag');
    expect((await serveOptionsFrom({}, {})).metricsToken).toBeUndefined();
    await expect(serveOptionsFrom({ metricsToken: 'two words' }, {})).rejects.toThrow(/metrics token cannot contain spaces/);
  });
});
