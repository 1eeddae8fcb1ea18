/**
 * The driver page's outbox: reports tapped without network wait here (in localStorage, per link)
 * until the service takes them. Pure functions over plain data, so the rules are tested without a
 * browser: one waiting report per stop (the latest tap wins), each with the time of its tap.
 */
import type { DriverRouteView, StopStatusUpdate } from './types.js';

export interface QueuedReport {
  stop_id: string;
  /** The report without its files: a Done's photo and signature wait in IndexedDB (proof-files-db.ts) under `proof_key`. */
  update: StopStatusUpdate;
  proof_key?: string;
}

/** The queue with `report` added: it replaces a waiting report for the same stop, keeping the order of the rest. */
export function enqueue(queue: readonly QueuedReport[], report: QueuedReport): QueuedReport[] {
  return [...queue.filter((entry) => entry.stop_id !== report.stop_id), report];
}

/** The queue without the report the service has just taken (unless a newer tap replaced it meanwhile). */
export function settle(queue: readonly QueuedReport[], sent: QueuedReport): QueuedReport[] {
  return queue.filter((entry) => entry !== sent && !(entry.stop_id === sent.stop_id && sameUpdate(entry.update, sent.update)));
}

function sameUpdate(a: StopStatusUpdate, b: StopStatusUpdate): boolean {
  return a.status === b.status && a.reason === b.reason && a.reason_code === b.reason_code && a.at === b.at;
}

/** The route as the driver sees it: the service's statuses with the waiting reports on top. */
export function withWaitingReports(route: DriverRouteView, queue: readonly QueuedReport[]): DriverRouteView {
  const waiting = new Map(queue.map((entry) => [entry.stop_id, entry.update]));
  return {
    ...route,
    stops: route.stops.map((stop) => {
      const update = waiting.get(stop.stop_id);
      if (!update) return stop;
      const { reason: _dropped, reason_code: _droppedCode, proof: _droppedProof, ...rest } = stop;
      return {
        ...rest,
        status: update.status,
        at: update.status === 'planned' ? null : (update.at ?? null),
        ...(update.reason !== undefined ? { reason: update.reason } : {}),
        ...(update.reason_code !== undefined ? { reason_code: update.reason_code } : {}),
        ...(update.recipient !== undefined ? { proof: { recipient: update.recipient } } : {}),
      };
    }),
  };
}

/** The IndexedDB key of a waiting report's files: the link's queue, the stop, and the tap. */
export function proofKeyOf(token: string, stopId: string, at: string): string {
  return `${queueKey(token)}.${stopId}.${at}`;
}

/** The storage key of one link's queue (never the whole token: it is a credential). */
export function queueKey(token: string): string {
  return `routeplan.driver.queue.${token.slice(0, 12)}`;
}

/** A stored queue, or an empty one when absent or unreadable. */
export function parseQueue(text: string | null): QueuedReport[] {
  if (text === null) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter(isQueuedReport) : [];
  } catch {
    return [];
  }
}

function isQueuedReport(value: unknown): value is QueuedReport {
  const entry = value as Partial<QueuedReport> | null;
  const status = entry?.update?.status;
  return typeof entry?.stop_id === 'string' && (status === 'done' || status === 'failed' || status === 'planned');
}

/** Failures worth trying again later: no network, or the service briefly down. */
export function isTransientStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}
