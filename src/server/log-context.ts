/**
 * The ids a log line carries without its caller naming them (issue 28, "Metrics and logs"): every
 * line written while one request is handled carries its `request_id`, and every line of one action's
 * run its `action_id` (and the `request_id` of the request that accepted it). The ids travel with the
 * asynchronous work itself (AsyncLocalStorage, on every Node line the service runs on), so that the
 * services, the stores and the notify/ outbox log through the one `log` they were given and need no
 * id threaded through their calls.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface LogIds {
  request_id?: string;
  action_id?: string;
}

const current = new AsyncLocalStorage<LogIds>();

/** Runs `work` (and everything it starts, awaited or not) with exactly these ids on its lines. */
export function withLogIds<T>(ids: LogIds, work: () => T): T {
  return current.run(ids, work);
}

/**
 * Runs `work` with no ids: for loops that outlive the request that woke them (the outbox's sender),
 * whose later lines belong to no request.
 */
export function withoutLogIds<T>(work: () => T): T {
  return current.run({}, work);
}

/** The ids of the work now running (none outside a request or an action's run). */
export function logIds(): LogIds {
  return current.getStore() ?? {};
}
