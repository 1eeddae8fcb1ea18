/**
 * The dispatch's events kept with the change they tell of (a transactional outbox): a change writes
 * its record and its events in one write, then tells them, then writes the record without those it
 * told. A listener that fails, a store that cannot take the events, or a process that ends between
 * the two writes leaves them in the record, to be told again (decisions.md: webhooks are delivered at
 * least once); told again, an event carries the same `notice`, by which listeners keep it once.
 */
import { randomUUID } from 'node:crypto';
import type { DispatchedEvent, DispatchListener, EtaChangedEvent, NoticeStamp, PromiseRevisedEvent, StopReportedEvent } from './events.js';

/** An event not yet told to every listener, as the dispatch record keeps it. */
export type PendingNotice =
  | { kind: 'dispatched'; event: DispatchedEvent }
  /** A stop that became done or failed: told as stopReported, and as stopDone too when done. */
  | { kind: 'stopReported'; event: StopReportedEvent }
  | { kind: 'etaChanged'; event: EtaChangedEvent }
  | { kind: 'promiseRevised'; event: PromiseRevisedEvent };

/** A record that keeps its untold events. */
export interface WithNotices {
  /** Oldest first; absent when every event was told. */
  notices?: PendingNotice[];
}

export function newStamp(now: Date): NoticeStamp {
  return { id: randomUUID(), at: now.toISOString() };
}

/** Adds `notices` to the record's untold ones (written with the change by the caller). */
export function keepNotices(record: WithNotices, notices: PendingNotice[]): void {
  if (notices.length === 0) return;
  record.notices = [...(record.notices ?? []), ...notices];
}

/**
 * Tells the record's untold events in order, stopping at the first one a listener failed (so that
 * none overtakes an earlier one); answers whether any was told, having removed those from the
 * record, which the caller then writes. The failure is logged.
 */
export async function tellNotices(
  record: WithNotices,
  listener: DispatchListener,
  log: (event: Record<string, unknown>) => void,
): Promise<boolean> {
  const pending = record.notices ?? [];
  let told = 0;
  for (const notice of pending) {
    try {
      await tellOne(listener, notice);
    } catch (error) {
      log({ event: 'dispatch_event_not_told', kind: notice.kind, notice_id: notice.event.notice.id, reason: (error as Error).message });
      break;
    }
    told++;
  }
  if (told === 0) return false;
  if (told === pending.length) delete record.notices;
  else record.notices = pending.slice(told);
  return true;
}

async function tellOne(listener: DispatchListener, notice: PendingNotice): Promise<void> {
  switch (notice.kind) {
    case 'dispatched':
      return listener.dispatched(notice.event);
    case 'stopReported':
      if (notice.event.status === 'done') await listener.stopDone(notice.event);
      return listener.stopReported?.(notice.event);
    case 'etaChanged':
      return listener.etaChanged(notice.event);
    case 'promiseRevised':
      return listener.promiseRevised?.(notice.event);
  }
}
