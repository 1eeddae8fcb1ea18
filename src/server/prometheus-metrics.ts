/**
 * The ServiceMetrics port (metrics.ts) as Prometheus metrics, served at `/metrics` (routes/metrics.ts).
 * Each service has its own Registry, never prom-client's global one: tests start several services in
 * one process, and each process of a PostgreSQL deployment serves its own counters. The queue's
 * figures are read from the store at each scrape, so on PostgreSQL every process reports the shared
 * queue of the whole service.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { MessageOutcome, ServiceMetrics, SolveOutcome, WebhookOutcome } from './metrics.js';
import type { QueueStats } from './store/ports.js';

/** Seconds: from a health check's few milliseconds to a body upload's limit. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds: a solve runs for its time limit (5 s by default), plus building the problem and the plan. */
const SOLVE_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600];

export class PrometheusMetrics implements ServiceMetrics {
  readonly registry = new Registry();
  private queueStats: (() => Promise<QueueStats>) | null = null;
  private readonly requests = new Counter({
    name: 'routeplan_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly requestSeconds = new Histogram({
    name: 'routeplan_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  private readonly solves = new Counter({
    name: 'routeplan_solves_total',
    help: 'Solves run by this process, by outcome (finished, failed, cancelled)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly solveSeconds = new Histogram({
    name: 'routeplan_solve_duration_seconds',
    help: 'Time from a solve starting to its ending being stored, by outcome',
    labelNames: ['outcome'] as const,
    buckets: SOLVE_BUCKETS,
    registers: [this.registry],
  });
  private readonly storeErrors = new Counter({
    name: 'routeplan_store_errors_total',
    help: 'Store operations that failed (storage unavailable, or a database error), by port and method',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });
  private readonly emails = new Counter({
    name: 'routeplan_emails_total',
    help: 'Customer e-mails handed to the SMTP server (sent), or given up on (failed: refused, or out of retries)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly webhooks = new Counter({
    name: 'routeplan_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by event and outcome (delivered, failed and retried, abandoned after the retry window)',
    labelNames: ['event', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly queueWaiting = this.gauge('routeplan_queue_waiting', 'Solves waiting to start, in the whole service');
  private readonly queueRunning = this.gauge('routeplan_queue_running', 'Solves running, in the whole service');
  private readonly queueOldest = this.gauge(
    'routeplan_queue_oldest_waiting_seconds',
    'How long the oldest waiting solve has waited (0 when none waits)',
  );

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Where the queue's figures come from (the store's, read at each scrape). */
  watchQueue(stats: () => Promise<QueueStats>): void {
    this.queueStats = stats;
  }

  /** The text a scrape answers, with the queue read now. */
  async render(): Promise<string> {
    await this.readQueue();
    return this.registry.metrics();
  }

  httpRequest(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.requestSeconds.observe({ route, method }, seconds);
  }

  solve(outcome: SolveOutcome, seconds: number): void {
    this.solves.inc({ outcome });
    this.solveSeconds.observe({ outcome }, seconds);
  }

  storeError(operation: string): void {
    this.storeErrors.inc({ operation });
  }

  message(outcome: MessageOutcome): void {
    this.emails.inc({ outcome });
  }

  webhookDelivery(event: string, outcome: WebhookOutcome): void {
    this.webhooks.inc({ event, outcome });
  }

  /**
   * A scrape while the store is down still answers: the queue's figures NaN (a stale or zero one
   * would mislead); the failed read is counted as a store error by the store's wrapper (store/counted.ts).
   */
  private async readQueue(): Promise<void> {
    const gauges = [this.queueWaiting, this.queueRunning, this.queueOldest];
    if (this.queueStats === null) return;
    try {
      const stats = await this.queueStats();
      this.queueWaiting.set(stats.waiting);
      this.queueRunning.set(stats.running);
      this.queueOldest.set(stats.oldestWaitingSeconds);
    } catch {
      for (const gauge of gauges) gauge.set(Number.NaN);
    }
  }

  private gauge(name: string, help: string): Gauge {
    return new Gauge({ name, help, registers: [this.registry] });
  }
}
