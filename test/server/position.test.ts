/** A driver's shared position (dispatch/position.ts): what is kept, what is refused with which paths, and when it re-times. */
import { describe, expect, it } from 'vitest';
import { checkPosition, isNewer, retimesRoute } from '../../src/server/services/dispatch/position.js';
import { HttpError } from '../../src/server/http/replies.js';

const NOW = new Date('2026-11-23T10:00:00Z');

function refusal(body: unknown): HttpError {
  try {
    checkPosition(body, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error('the position was accepted');
}

describe('checkPosition', () => {
  it('keeps latitude, longitude, the device time and the accuracy', () => {
    expect(checkPosition({ lat: 45.75, lng: 4.85, at: '2026-11-23T09:59:30+01:00', accuracy_m: 12 }, NOW)).toEqual({
      lat: 45.75,
      lng: 4.85,
      at: '2026-11-23T08:59:30.000Z',
      accuracy_m: 12,
    });
  });

  it('replaces a device time further ahead than a clock may run by the server’s, and keeps one a little ahead', () => {
    expect(checkPosition({ lat: 0, lng: 0, at: '2026-11-23T11:00:00Z' }, NOW).at).toBe(NOW.toISOString());
    expect(checkPosition({ lat: 0, lng: 0, at: '2026-11-23T10:02:00Z' }, NOW).at).toBe('2026-11-23T10:02:00.000Z');
  });

  it('refuses every problem at once with 400 and the path of each', () => {
    const error = refusal({ lat: 91, lng: '4.8', at: 'yesterday', accuracy_m: -1 });
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_position');
    expect(error.details.map((detail) => detail.path)).toEqual(['lat', 'lng', 'at', 'accuracy_m']);
    expect(refusal({ lat: 0, lng: 181, at: '2026-11-23T09:00:00Z' }).details.map((detail) => detail.path)).toEqual(['lng']);
    expect(refusal({ lat: Number.NaN, lng: 0 }).details.map((detail) => detail.path)).toEqual(['lat', 'at']);
    expect(refusal([1, 2]).details).toEqual([{ path: 'body', message: 'expected a JSON object' }]);
  });
});

describe('which positions count', () => {
  const at = (time: string) => ({ lat: 0, lng: 0, at: `2026-11-23T${time}Z` });

  it('keeps only a position newer than the one kept', () => {
    expect(isNewer(at('09:00:00'), undefined)).toBe(true);
    expect(isNewer(at('09:00:01'), at('09:00:00'))).toBe(true);
    expect(isNewer(at('09:00:00'), at('09:00:00'))).toBe(false);
    expect(isNewer(at('08:59:00'), at('09:00:00'))).toBe(false);
  });

  it('re-times from a position 30 s or more after the report the estimates come from', () => {
    expect(retimesRoute(at('09:00:00'), undefined)).toBe(true);
    expect(retimesRoute(at('09:00:29'), '2026-11-23T09:00:00.000Z')).toBe(false);
    expect(retimesRoute(at('09:00:30'), '2026-11-23T09:00:00.000Z')).toBe(true);
    expect(retimesRoute(at('08:59:00'), '2026-11-23T09:00:00.000Z')).toBe(false);
  });
});
