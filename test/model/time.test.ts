import { describe, expect, it } from 'vitest';
import { clockInterval, formatClock, minutesToSeconds, parseClock, onTheWorkingDay } from '../../src/model/time.js';

describe('clock times (decisions.md: Units and time)', () => {
  it('clock times are HH:mm, also H:mm and HH:mm:ss', () => {
    expect(parseClock('08:30')).toBe(8 * 3600 + 30 * 60);
    expect(parseClock('8:30')).toBe(8 * 3600 + 30 * 60);
    expect(parseClock('08:30:15')).toBe(8 * 3600 + 30 * 60 + 15);
    expect(parseClock('00:00')).toBe(0);
    expect(parseClock('23:59:59')).toBe(86_399);
  });

  it('times of the next day may be written past 24:00, as the plan prints them (up to 47:59:59)', () => {
    expect(parseClock('24:00')).toBe(86_400);
    expect(parseClock('25:30')).toBe(86_400 + 90 * 60);
    expect(parseClock('47:59:59')).toBe(2 * 86_400 - 1);
  });

  it("night work: an interval that ends at or before the day's start lies on the next day", () => {
    const night = parseClock('22:00')!;
    expect(onTheWorkingDay({ start: parseClock('02:00')!, end: parseClock('03:00')! }, night)).toEqual({ start: 93_600, end: 97_200 });
    expect(onTheWorkingDay({ start: parseClock('21:00')!, end: parseClock('22:30')! }, night)).toEqual({ start: 75_600, end: 81_000 });
    expect(onTheWorkingDay({ start: parseClock('02:00')!, end: parseClock('03:00')! }, 0)).toEqual({ start: 7_200, end: 10_800 });
  });

  it('rejects what is not a clock time', () => {
    for (const bad of ['48:00', '8', '8h30', '08:60', '08:30:60', '', 'noon', '-1:00', '08:3']) {
      expect(parseClock(bad), bad).toBeNull();
    }
  });

  it('a window whose end is earlier than its start ends on the next day', () => {
    expect(clockInterval(parseClock('22:00')!, parseClock('06:00')!)).toEqual({ start: 79_200, end: 108_000 });
    expect(clockInterval(parseClock('08:00')!, parseClock('12:00')!)).toEqual({ start: 28_800, end: 43_200 });
  });

  it('output times carry an HH:mm string that keeps counting past midnight', () => {
    expect(formatClock(8 * 3600 + 5 * 60 + 59)).toBe('08:05');
    expect(formatClock(86_400 + 90 * 60)).toBe('25:30');
    expect(formatClock(0)).toBe('00:00');
  });

  it('durations are minutes and fractions are allowed', () => {
    expect(minutesToSeconds(1.5)).toBe(90);
    expect(minutesToSeconds(0.25)).toBe(15);
    expect(minutesToSeconds(10)).toBe(600);
  });
});
