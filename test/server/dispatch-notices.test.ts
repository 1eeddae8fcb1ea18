/**
 * The dispatch's events kept with their change (src/server/services/dispatch/notices.ts): told in
 * order, the first failure stopping the telling so that no event overtakes an earlier one, and
 * those told removed from the record while the rest stay to be told again.
 */
import { describe, expect, it } from 'vitest';
import type { DispatchListener, DispatchedProject, StopReportedEvent } from '../../src/server/services/dispatch/events.js';
import { keepNotices, newStamp, tellNotices, type PendingNotice, type WithNotices } from '../../src/server/services/dispatch/notices.js';

const PROJECT: DispatchedProject = { id: 'p1', name: 'Morning rounds', date: '2026-11-23' };
const NOW = new Date('2026-11-23T09:00:00Z');

function reported(stopId: string, status: 'done' | 'failed'): PendingNotice {
  const event: StopReportedEvent = {
    notice: newStamp(NOW),
    owner: 'key-alpha',
    project: PROJECT,
    dispatched_at: NOW.toISOString(),
    stop: { stop_id: stopId, name: stopId, start_s: null, finish_s: null, changed: false },
    at: NOW.toISOString(),
    status,
    driver_id: 'd1',
  };
  return { kind: 'stopReported', event };
}

/** A listener that writes down what it is told, and fails on the stops named in `failOn`. */
function recording(failOn: string[] = []): { listener: DispatchListener; told: string[] } {
  const told: string[] = [];
  const listener: DispatchListener = {
    dispatched: () => void told.push('dispatched'),
    stopDone: (event) => void told.push(`done ${event.stop.stop_id}`),
    stopReported: (event) => {
      if (failOn.includes(event.stop.stop_id)) return Promise.reject(new Error('store unavailable'));
      told.push(`reported ${event.stop.stop_id}`);
      return Promise.resolve();
    },
    etaChanged: () => void told.push('eta'),
  };
  return { listener, told };
}

describe('the dispatch tells each event at least once, in order (notices.ts)', () => {
  it('tells the untold events in order and removes them from the record', async () => {
    const record: WithNotices = {};
    keepNotices(record, [reported('a', 'failed')]);
    keepNotices(record, [reported('b', 'done')]);
    const { listener, told } = recording();
    expect(await tellNotices(record, listener, () => undefined)).toBe(true);
    expect(told).toEqual(['reported a', 'done b', 'reported b']);
    expect(record.notices).toBeUndefined();
  });

  it('stops at the first failure: that event and the later ones stay, with their ids, the earlier ones go', async () => {
    const record: WithNotices = {};
    const notices = [reported('a', 'done'), reported('b', 'done'), reported('c', 'done')];
    keepNotices(record, notices);
    const logged: Record<string, unknown>[] = [];
    const { listener, told } = recording(['b']);
    expect(await tellNotices(record, listener, (event) => logged.push(event))).toBe(true);
    expect(told).toEqual(['done a', 'reported a', 'done b']);
    expect(record.notices).toEqual(notices.slice(1));
    expect(logged).toEqual([
      { event: 'dispatch_event_not_told', kind: 'stopReported', notice_id: notices[1]!.event.notice.id, reason: 'store unavailable' },
    ]);
  });

  it('a first event that fails: nothing told, nothing to write', async () => {
    const record: WithNotices = {};
    keepNotices(record, [reported('a', 'done')]);
    const { listener } = recording(['a']);
    expect(await tellNotices(record, listener, () => undefined)).toBe(false);
    expect(record.notices).toHaveLength(1);
  });

  it('a record with nothing untold: nothing told', async () => {
    const { listener, told } = recording();
    expect(await tellNotices({}, listener, () => undefined)).toBe(false);
    expect(told).toEqual([]);
  });
});
