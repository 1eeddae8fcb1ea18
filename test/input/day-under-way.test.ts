/**
 * The fields of a day under way (issue 24): a stop's `preferred_driver`, a driver's `resume`
 * {lat, lng, at} and `settings.time_zone`, as the input layer reads and checks them; and "now" in a
 * project's zone as seconds into its day (server/services/dispatch/zone-clock.ts).
 */
import { describe, expect, it } from 'vitest';
import { clockText, secondsIntoDay } from '../../src/server/services/dispatch/zone-clock.js';
import { detailAt, driver, inputError, load, project, stop } from './helpers.js';

const twoDrivers = [driver('Camille', { shift_start: '06:00', shift_end: '14:00' }), driver('Lucas', { shift_start: '06:00' })];

describe('stop.preferred_driver', () => {
  it('is carried to the problem as the stop’s preference, and is no lock', () => {
    const { problem } = load(project({ drivers: twoDrivers, stops: [stop('A', { preferred_driver: 'Lucas' }), stop('B')] }));
    expect(problem.stops[0]!.prefer).toBe('Lucas');
    expect(problem.stops[0]!.lock).toBeUndefined();
    expect(Array.from(problem.compatible)).toEqual([1, 1, 1, 1]);
    expect(problem.stops[1]!.prefer).toBeUndefined();
  });

  it('must be a non-empty name', () => {
    const error = inputError(() => load(project({ stops: [stop('A', { preferred_driver: '' })] })));
    expect(detailAt(error, 'stops[0].preferred_driver').message).toBe('"" is not allowed; use a non-empty name');
  });
});

describe('driver.resume: the day goes on from a place, not before a time', () => {
  const resumed = (resume: unknown): Record<string, unknown> =>
    project({
      drivers: [driver('Camille', { shift_start: '06:00', shift_end: '14:00', resume }), driver('Lucas', { shift_start: '06:00' })],
      stops: [stop('Early', { start: '07:00', end: '08:00' }), stop('Late', { start: '11:00', end: '12:00' }, { lat: 45.77, lng: 4.85 })],
    });

  it('moves the start and the earliest departure, keeping the shift end and the working day', () => {
    const { problem } = load(resumed({ lat: 45.77, lng: 4.85, at: '10:30' }));
    const [camille, lucas] = problem.vehicles;
    expect(problem.locations[camille!.startLocation]).toEqual({ lat: 45.77, lng: 4.85 });
    expect(camille!.earliestStart).toBe(10.5 * 3600);
    expect(camille!.shiftEnd).toBe(14 * 3600);
    expect(camille!.endLocation).toBe(-1);
    expect(lucas!.earliestStart).toBe(6 * 3600);
    // A window that is over by then stays on this day (it is not read as the next night's).
    expect(problem.stops[0]!.windows).toEqual([{ start: 7 * 3600, end: 8 * 3600 }]);
  });

  it('never departs before the shift start: resuming earlier than it changes only the place', () => {
    const { problem } = load(resumed({ lat: 45.77, lng: 4.85, at: '05:00:30' }));
    expect(problem.vehicles[0]!.earliestStart).toBe(6 * 3600);
  });

  it('reads a time past 24:00 as the next day', () => {
    const { problem } = load(resumed({ lat: 45.77, lng: 4.85, at: '25:15' }));
    expect(problem.vehicles[0]!.earliestStart).toBe(25.25 * 3600);
  });

  it('bad parts are errors at their paths, reported at once', () => {
    const error = inputError(() => load(resumed({ lat: 95, lng: 4.85, at: '10h30' })));
    expect(error.details.map((detail) => detail.path).sort()).toEqual(['drivers[0].resume.at', 'drivers[0].resume.lat']);
    const missing = inputError(() => load(resumed({ lat: 45.77, lng: 4.85 })));
    expect(detailAt(missing, 'drivers[0].resume.at')).toBeDefined();
  });
});

describe('settings.time_zone', () => {
  it.each(['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC'])('%s is a zone', (zone) => {
    expect(() => load(project({ settings: { time_zone: zone } }))).not.toThrow();
  });

  it.each(['Mars/Olympus', 'Europe/Pariss', '', ' UTC', 7])('%j is not: 400 at settings.time_zone', (zone) => {
    const error = inputError(() => load(project({ settings: { time_zone: zone } })));
    expect(detailAt(error, 'settings.time_zone').message).toMatch(/is not allowed; use an IANA time zone name/);
  });
});

describe('now in a project’s zone, as seconds into its day', () => {
  it('reads the wall clock of the zone, far from UTC on either side', () => {
    const instant = new Date('2026-11-23T01:30:00Z');
    expect(secondsIntoDay('2026-11-23', instant, 'Asia/Tokyo')).toBe(10.5 * 3600);
    expect(secondsIntoDay('2026-11-23', instant, 'UTC')).toBe(1.5 * 3600);
    // 20:30 the evening before in New York (UTC-5 in November): before the project's day.
    expect(secondsIntoDay('2026-11-23', instant, 'America/New_York')).toBe(-3.5 * 3600);
    expect(secondsIntoDay('2026-11-22', instant, 'America/New_York')).toBe(20.5 * 3600);
    // After midnight in Auckland (UTC+13 in November): the next day, past 24:00.
    expect(secondsIntoDay('2026-11-22', instant, 'Pacific/Auckland')).toBe(38.5 * 3600);
  });

  it('follows daylight-saving time', () => {
    expect(secondsIntoDay('2026-07-01', new Date('2026-07-01T12:00:00Z'), 'Europe/Paris')).toBe(14 * 3600);
    expect(secondsIntoDay('2026-12-01', new Date('2026-12-01T12:00:00Z'), 'Europe/Paris')).toBe(13 * 3600);
  });

  it('writes seconds as the clock text the input reads', () => {
    expect(clockText(10.5 * 3600 + 7)).toBe('10:30:07');
    expect(clockText(25 * 3600 + 60)).toBe('25:01:00');
    expect(clockText(0)).toBe('0:00:00');
  });
});
