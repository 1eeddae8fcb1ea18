/**
 * What the service counts for `/metrics` (issue 28). The parts that produce a figure (HTTP layer, solve
 * runner, stores, customer messages, webhooks) report it through this port; one implementation turns the
 * reports into Prometheus metrics, and `noMetrics` serves callers that have none (the CLI, unit tests).
 */
export type SolveOutcome = 'finished' | 'failed' | 'cancelled';
export type MessageOutcome = 'sent' | 'failed';
/** `abandoned`: the retry window ran out without a 2xx answer. */
export type WebhookOutcome = 'delivered' | 'failed' | 'abandoned';

export interface ServiceMetrics {
  /** One answered HTTP request; `route` is the registered pattern (`/v2/schedules/:actionUuid`), never the raw URL. */
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  solve(outcome: SolveOutcome, seconds: number): void;
  /** A store operation that failed (StoreUnavailableError or an unexpected database error). */
  storeError(operation: string): void;
  /** One customer message handed to SMTP, or refused / failed. */
  message(outcome: MessageOutcome): void;
  /** One webhook delivery attempt (`failed`: this try failed, another will follow). */
  webhookDelivery(event: string, outcome: WebhookOutcome): void;
}

export const noMetrics: ServiceMetrics = {
  httpRequest: () => {},
  solve: () => {},
  storeError: () => {},
  message: () => {},
  webhookDelivery: () => {},
};

/** What GET /metrics answers (the metrics' text), and who may read it (http/routes/metrics.ts). */
export interface MetricsEndpoint {
  /** The exposition text, with the queue's figures read now. */
  render(): Promise<string>;
  contentType: string;
  /** The Bearer token a scrape needs (`--metrics-token`), or null: loopback clients only. */
  token: string | null;
}
