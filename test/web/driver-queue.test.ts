/** The driver page's outbox rules, without a browser: one waiting report per stop, shown over the service's statuses. */
import { describe, expect, it } from 'vitest';
import {
  enqueue,
  isTransientStatus,
  parseQueue,
  proofKeyOf,
  queueKey,
  settle,
  withWaitingReports,
  type QueuedReport,
} from '../../src/web/driver-queue.js';
import type { DriverRouteView } from '../../src/server/api-types.js';

const route: DriverRouteView = {
  project: { name: 'P', date: '2026-11-24' },
  driver: { id: 'd', name: 'Ana' },
  dispatched_at: '2026-11-24T06:00:00Z',
  expires_at: '2026-11-26T00:00:00Z',
  stops: ['a', 'b'].map((id) => ({
    stop_id: id,
    name: id.toUpperCase(),
    lat: 1,
    lng: 2,
    arrival_s: 100,
    start_s: 100,
    finish_s: 200,
    status: id === 'b' ? 'failed' : 'planned',
    at: id === 'b' ? '2026-11-24T08:00:00Z' : null,
    ...(id === 'b' ? { reason: 'closed' } : {}),
  })),
};

const done = (stop: string, at: string): QueuedReport => ({ stop_id: stop, update: { status: 'done', at } });

describe('the driver page outbox', () => {
  it('keeps one waiting report per stop: the latest tap wins, the order of the others stays', () => {
    let queue = enqueue([], done('a', '08:00'));
    queue = enqueue(queue, done('b', '08:05'));
    queue = enqueue(queue, { stop_id: 'a', update: { status: 'planned' } });
    expect(queue.map((entry) => [entry.stop_id, entry.update.status])).toEqual([
      ['b', 'done'],
      ['a', 'planned'],
    ]);
  });

  it('settles a sent report, but not a newer tap on the same stop made while it was in flight', () => {
    const sent = done('a', '08:00');
    const newer = done('a', '08:01');
    expect(settle([sent], sent)).toEqual([]);
    expect(settle(enqueue([sent], newer), sent)).toEqual([newer]);
  });

  it('shows waiting reports over the service’s statuses, dropping a reason the new status does not have', () => {
    const shown = withWaitingReports(route, [
      done('b', '2026-11-24T09:00:00Z'),
      { stop_id: 'a', update: { status: 'failed', reason: 'dog', at: 'x' } },
    ]);
    expect(shown.stops.map((stop) => [stop.status, stop.reason, stop.at])).toEqual([
      ['failed', 'dog', 'x'],
      ['done', undefined, '2026-11-24T09:00:00Z'],
    ]);
    expect(route.stops[1]!.status).toBe('failed'); // the service's copy is left alone
  });

  it('keeps a Done’s files under their IndexedDB key through a reload, and shows the reason code and the recipient while waiting', () => {
    const key = proofKeyOf('abcdefghijklmnopqrstuvwxyz012345', 'a', '2026-11-24T09:00:00Z');
    expect(key).toBe('routeplan.driver.queue.abcdefghijkl.a.2026-11-24T09:00:00Z');
    const withPhoto: QueuedReport = { stop_id: 'a', update: { status: 'done', at: 'x', recipient: 'Mme Durand' }, proof_key: key };
    expect(parseQueue(JSON.stringify([withPhoto]))).toEqual([withPhoto]);
    const shown = withWaitingReports(route, [withPhoto, { stop_id: 'b', update: { status: 'failed', reason_code: 'refused', at: 'y' } }]);
    expect(shown.stops.map((stop) => [stop.status, stop.proof, stop.reason_code, stop.reason])).toEqual([
      ['done', { recipient: 'Mme Durand' }, undefined, undefined],
      ['failed', undefined, 'refused', undefined],
    ]);
    // A failure with another code is another report, not the same one sent again.
    const failed = { stop_id: 'b', update: { status: 'failed' as const, reason_code: 'refused' as const, at: 'y' } };
    expect(settle([failed], { ...failed, update: { ...failed.update, reason_code: 'damaged' } })).toEqual([failed]);
  });

  it('reads a stored queue defensively, keys it by a prefix of the token, and retries only network and server failures', () => {
    expect(parseQueue(null)).toEqual([]);
    expect(parseQueue('{not json')).toEqual([]);
    expect(parseQueue(JSON.stringify([done('a', 'x'), { stop_id: 3 }, { stop_id: 'b', update: { status: 'lost' } }]))).toEqual([
      done('a', 'x'),
    ]);
    expect(queueKey('abcdefghijklmnopqrstuvwxyz012345')).toBe('routeplan.driver.queue.abcdefghijkl');
    expect([0, 408, 429, 500, 503].every(isTransientStatus)).toBe(true);
    expect([400, 404, 410].some(isTransientStatus)).toBe(false);
  });
});
