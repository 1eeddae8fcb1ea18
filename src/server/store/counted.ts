/**
 * Stores whose failures are counted for `/metrics` (routeplan_store_errors_total): every method of
 * every port that rejects with StoreUnavailableError (a full disk, an unreachable database) or with
 * a database's own error reports `<port>.<method>` to the metrics, then rejects as before. The
 * answers a port promises (QueueFullError, IdempotencyKeyTakenError, an interrupted solve) are no
 * store errors and are not counted. One wrapper for both stores, so neither counts by hand.
 */
import type { ServiceMetrics } from '../metrics.js';
import { StoreUnavailableError } from './errors.js';
import type { Stores } from './ports.js';

const PORTS = ['actions', 'projects', 'sessions', 'records', 'outbox', 'blobs', 'queue'] as const;

export function countingStoreErrors(stores: Stores, metrics: ServiceMetrics): Stores {
  // One failure, one count: an error that passes out through an enclosing call (records.exclusively
  // around a write) is counted once, by the innermost operation that failed.
  const seen = new WeakSet<object>();
  const count = (operation: string, error: unknown): void => {
    if (!isStoreError(error) || seen.has(error)) return;
    seen.add(error);
    metrics.storeError(operation);
  };
  const counted = { ...stores };
  for (const port of PORTS) (counted as Record<string, unknown>)[port] = countingPort(port, stores[port], count);
  return counted;
}

/** The port with each method's rejections counted; methods run on the port itself (`this` unchanged). */
function countingPort<T extends object>(port: string, target: T, count: (operation: string, error: unknown) => void): T {
  return new Proxy(target, {
    get(object, name, receiver) {
      const value: unknown = Reflect.get(object, name, receiver);
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return (...args: unknown[]): unknown => {
        const result: unknown = (value as (...given: unknown[]) => unknown).apply(object, args);
        if (!(result instanceof Promise)) return result;
        return result.catch((error: unknown) => {
          count(`${port}.${name}`, error);
          throw error;
        });
      };
    },
  });
}

/** Unavailable storage, or an error the database itself raised (pg's errors carry a SQLSTATE `code` and a `severity`). */
function isStoreError(error: unknown): error is object {
  if (error instanceof StoreUnavailableError) return true;
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}
