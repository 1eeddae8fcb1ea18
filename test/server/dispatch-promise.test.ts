/**
 * The customer's promise (decisions.md, "The live day"): the planned arrival ± the margin widened to
 * whole quarter hours, and when a moved estimate calls for a revised one.
 */
import { describe, expect, it } from 'vitest';
import { leavesWindow, promisedWindow, revisedPromise } from '../../src/server/services/dispatch/promise.js';
import { promiseText } from '../../src/server/services/notify/templates.js';

const at = (clock: string): number => {
  const [hours, minutes] = clock.split(':').map(Number);
  return hours! * 3600 + minutes! * 60;
};

describe('promisedWindow', () => {
  it('floors the start and ceils the end to quarter hours', () => {
    expect(promisedWindow(at('09:07'), 30 * 60)).toEqual({ start_s: at('08:30'), end_s: at('09:45') });
    expect(promisedWindow(at('09:07') + 20, 10 * 60)).toEqual({ start_s: at('08:45'), end_s: at('09:30') });
  });

  it('keeps a time exactly on a quarter hour where it is', () => {
    expect(promisedWindow(at('09:00'), 30 * 60)).toEqual({ start_s: at('08:30'), end_s: at('09:30') });
    expect(promisedWindow(at('09:15'), 15 * 60)).toEqual({ start_s: at('09:00'), end_s: at('09:30') });
  });

  it('with margin 0 is the quarter hour around the arrival, or the very moment when it falls on one', () => {
    expect(promisedWindow(at('09:07'), 0)).toEqual({ start_s: at('09:00'), end_s: at('09:15') });
    expect(promisedWindow(at('09:30'), 0)).toEqual({ start_s: at('09:30'), end_s: at('09:30') });
    expect(promiseText(promisedWindow(at('09:30'), 0)!)).toBe('at 09:30');
  });

  it('runs past midnight into the next day, and never starts before the day', () => {
    const window = promisedWindow(at('23:50'), 30 * 60)!;
    expect(window).toEqual({ start_s: at('23:15'), end_s: 86_400 + at('00:30') });
    expect(promiseText(window)).toBe('between 23:15 and 00:30 (+1 day)');
    expect(promisedWindow(at('00:10'), 30 * 60)).toEqual({ start_s: 0, end_s: at('00:45') });
  });

  it('is none for a stop without planned times', () => {
    expect(promisedWindow(null, 1_800)).toBeNull();
    expect(promiseText(undefined)).toBe('during the day');
  });
});

describe('revisedPromise', () => {
  const promised = { start_s: at('09:00'), end_s: at('10:00') };
  const now = new Date('2026-11-23T09:30:00Z');

  it('is due when the estimate leaves the window on either side, with the new estimate ± the margin', () => {
    expect(revisedPromise({ status: 'planned', promised }, at('10:20'), now, 1_800)).toEqual({ start_s: at('09:45'), end_s: at('11:00') });
    expect(revisedPromise({ status: 'planned', promised }, at('08:40'), now, 1_800)).toEqual({ start_s: at('08:00'), end_s: at('09:15') });
  });

  it('is not due inside the window, its edges included', () => {
    for (const eta of [at('09:00'), at('09:30'), at('10:00')]) {
      expect(leavesWindow(eta, promised)).toBe(false);
      expect(revisedPromise({ status: 'planned', promised }, eta, now, 1_800)).toBeNull();
    }
    expect(leavesWindow(at('10:00') + 1, promised)).toBe(true);
  });

  it('is never due for a done or failed stop, nor for one without a promise', () => {
    expect(revisedPromise({ status: 'done', promised }, at('11:00'), now, 1_800)).toBeNull();
    expect(revisedPromise({ status: 'failed', promised }, at('11:00'), now, 1_800)).toBeNull();
    expect(revisedPromise({ status: 'planned' }, at('11:00'), now, 1_800)).toBeNull();
  });

  it('is due at most once an hour per stop', () => {
    const revised = (minutesAgo: number): string => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
    expect(revisedPromise({ status: 'planned', promised, revised_at: revised(59) }, at('11:00'), now, 1_800)).toBeNull();
    expect(revisedPromise({ status: 'planned', promised, revised_at: revised(60) }, at('11:00'), now, 1_800)).not.toBeNull();
  });
});
