/** The live day's rules in the pages, without a browser: the 30 s throttle of shared positions, and how estimates and ages read. */
import { describe, expect, it } from 'vitest';
import { SHARE_EVERY_MS, shareKey, shouldSend } from '../../src/web/share-throttle.js';
import { ageText, etaShiftMinutes, etaText } from '../../src/web/eta-text.js';

describe('the 30 s throttle of shared positions', () => {
  it('sends the first position, then none until 30 s have passed since the last one sent', () => {
    expect(SHARE_EVERY_MS).toBe(30_000);
    expect(shouldSend(null, 1_000)).toBe(true);
    expect(shouldSend(1_000, 1_001)).toBe(false);
    expect(shouldSend(1_000, 30_999)).toBe(false);
    expect(shouldSend(1_000, 31_000)).toBe(true);
  });

  it('a stream of readings every 5 s for 2 minutes sends one every 30 s: 4 in all', () => {
    let last: number | null = null;
    let sent = 0;
    for (let t = 0; t < 120_000; t += 5_000) {
      if (!shouldSend(last, t)) continue;
      last = t;
      sent += 1;
    }
    expect(sent).toBe(4);
  });

  it('does not hold positions back when the phone’s clock is set back', () => {
    expect(shouldSend(100_000, 50_000)).toBe(true);
  });

  it('remembers the choice per link', () => {
    expect(shareKey('abc')).not.toBe(shareKey('abd'));
  });
});

describe('estimates and ages as the pages word them', () => {
  it('shows an estimate only once it moved by a whole minute, later or earlier', () => {
    expect(etaText({ arrival_s: 36_000 })).toBeNull();
    expect(etaText({ arrival_s: 36_000, eta_s: 36_020 })).toBeNull();
    expect(etaText({ arrival_s: 36_000, eta_s: 38_400 })).toBe('10:40 (40 min later)');
    expect(etaText({ arrival_s: 36_000, eta_s: 35_400 })).toBe('09:50 (10 min earlier)');
    expect(etaText({ arrival_s: 86_000, eta_s: 88_400 })).toBe('00:33 (+1 day) (40 min later)');
    expect(etaShiftMinutes({ arrival_s: null, eta_s: 36_000 })).toBeNull();
  });

  it('says how old a position is', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(ageText('2026-11-23T09:59:40Z', now)).toBe('just now');
    expect(ageText('2026-11-23T09:57:00Z', now)).toBe('3 min ago');
    expect(ageText('2026-11-23T07:55:00Z', now)).toBe('2 h 5 min ago');
    expect(ageText('2026-11-23T09:00:00Z', now)).toBe('1 h ago');
  });
});
