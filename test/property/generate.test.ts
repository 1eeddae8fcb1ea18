/** The generator must produce valid raw documents (the input layer accepts them) with every feature present. */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { checkTravelMatrix } from '../support/checker.js';
import { generateOneOff, generateProject } from '../support/generate.js';

describe('generator', () => {
  it('is deterministic per seed', () => {
    expect(generateProject(7, { stops: 40 })).toEqual(generateProject(7, { stops: 40 }));
    expect(generateOneOff(7, { stops: 40 })).toEqual(generateOneOff(7, { stops: 40 }));
    expect(generateOneOff(7, { stops: 40 })).not.toEqual(generateOneOff(8, { stops: 40 }));
  });

  it('keeps every point inside a city about 20 km across', () => {
    for (let seed = 0; seed < 10; seed++) {
      const doc = generateOneOff(seed, { stops: 200 }) as { ordersData: { locations: { latitude: number; longitude: number }[] }[] };
      const lats = doc.ordersData.map((o) => o.locations[0]!.latitude);
      const lngs = doc.ordersData.map((o) => o.locations[0]!.longitude);
      const latSpanKm = (Math.max(...lats) - Math.min(...lats)) * 111.2;
      expect(latSpanKm).toBeLessThanOrEqual(20.1);
      expect(latSpanKm).toBeGreaterThan(3);
      expect(Math.max(...lngs) - Math.min(...lngs)).toBeGreaterThan(0.02);
    }
  });

  it('exercises every feature across a few seeds (project)', () => {
    const text = JSON.stringify(Array.from({ length: 16 }, (_, seed) => generateProject(seed, { stops: 120 })));
    for (const needle of [
      '"break":',
      '"breaks":',
      '"capacity":{',
      '"capacity":',
      '"load":{',
      '"types":[',
      '"types":"',
      '"priority":"high"',
      '"priority":10000',
      '"speed":"',
      '"speed":0.5',
      '"end_location"',
      '"strict_start":true',
      '"max_stop_lateness"',
      '"max_driver_overtime"',
      '"traffic"',
      '"auto_balance":true',
      '"default_duration"',
      '"shift_start":"20:',
      '"custom_notes"',
      '"breaks":[{"start"',
      '},{"start"',
    ]) {
      expect(text, needle).toContain(needle);
    }
  });

  it('exercises every feature across a few seeds (one-off)', () => {
    const text = JSON.stringify(Array.from({ length: 16 }, (_, seed) => generateOneOff(seed, { stops: 120 })));
    for (const needle of [
      '"timeWindows":[{',
      '},{"startTime"',
      '"tags":[',
      '"endLocations"',
      '"capacity":',
      '"squashDuration":3',
      '"minimizeRoutes":true',
      '"balanceType":"orders"',
      '"flexibleStartTime":true',
      '"allowVisitLateness":true',
      '"allowRouteOvertime":true',
      '"allowCapacityOverload":true',
      '"startTime":"20:',
    ]) {
      expect(text, needle).toContain(needle);
    }
  });

  it('produces documents the input layer accepts, with a travel matrix matching decisions.md', () => {
    for (let seed = 0; seed < 12; seed++) {
      for (const doc of [generateProject(seed, { stops: 60 }), generateOneOff(seed, { stops: 60 })]) {
        const { problem } = loadProblemDocument(doc);
        expect(problem.stops).toHaveLength(60);
        expect(checkTravelMatrix(problem)).toEqual([]);
      }
    }
  });
});
