import { describe, expect, it } from 'vitest';
import { buildGeoJson } from '../../src/output/geojson.js';
import { renderPlanHtml } from '../../src/output/html.js';
import { buildPlan } from '../../src/output/plan.js';
import { renderPlanTables } from '../../src/output/table.js';
import { routeLocations } from '../../src/output/visits.js';
import { sampleProblem, sampleResult } from './sample.js';

const ANSI = /\u001b\[[0-9;]*m/;
const plan = buildPlan(sampleProblem(), sampleResult());

describe('renderPlanTables', () => {
  const text = renderPlanTables(plan, { color: false });

  it('summary block first: routes, served, unserved, distance', () => {
    const firstLine = text.split('\n')[0]!;
    expect(firstLine).toContain('2 routes');
    expect(firstLine).toContain('3 served');
    expect(firstLine).toContain('1 unserved');
    expect(text).toContain('distance 10.6 km');
  });

  it('one table per route with order, stop, arrival, start, finish, load after and lateness', () => {
    expect(text).toContain('Route 1: Van A — 08:00 → 13:00');
    expect(text).toContain('Route 2: Bike B — 09:00 → 09:10 (open end)');
    for (const head of ['#', 'Stop', 'Arrival', 'Start', 'Finish', 'Load after', 'Late']) expect(text).toContain(head);
    const cafeRow = text.split('\n').find((line) => line.includes('Café Mercier'))!;
    expect(cafeRow).toMatch(/│ 1 +│ Café Mercier +│ 08:05 +│ 08:05 +│ 08:15 +│ 1 +│/);
    const lateRow = text.split('\n').find((line) => line.includes('Boulangerie <Nord>'))!;
    expect(lateRow).toContain('+2 min');
  });

  it('the unserved table has a "Would fit if" column: the hints one a line, a dash when there are none', () => {
    const withHints = buildPlan(sampleProblem(), {
      ...sampleResult(),
      unserved: [
        {
          ...sampleResult().unserved[0]!,
          hints: [
            {
              kind: 'shift_end_later',
              amount: 40,
              vehicle: 0,
              value: 13 * 3600 + 40 * 60,
              text: "Van A's shift ending 40 min later (13:40)",
            },
            { kind: 'driver_capacity', amount: 2, vehicle: 0, dimension: 0, value: 12, text: "Van A's capacity +2 (12)" },
          ],
        },
      ],
    });
    expect(renderPlanHtml(withHints)).toContain('<th>Would fit if</th></tr></thead>');
    expect(renderPlanHtml(withHints)).toContain('<td>Van A&#39;s shift ending 40 min later (13:40); Van A&#39;s capacity +2 (12)</td>');
    const table = renderPlanTables(withHints, { color: false });
    expect(table).toMatch(/│ Would fit if +│/);
    const lines = table.split('\n');
    const first = lines.findIndex((line) => line.includes("• Van A's shift ending"));
    expect(lines[first]).toContain('Far Away Farm');
    expect(lines.slice(first + 1).find((line) => line.includes('•'))).toContain("• Van A's capacity +2 (12)");
    const none = renderPlanTables(plan, { color: false })
      .split('\n')
      .find((line) => line.includes('Far Away Farm'))!;
    expect(none).toMatch(/│ — +│$/);
  });

  it('breaks are rows of the route table', () => {
    const breakRow = text.split('\n').find((line) => line.includes('(break)'))!;
    expect(breakRow).toMatch(/12:00 +│ 12:30/);
  });

  it('a stop without ETAs shows dashes and a footnote', () => {
    const kioskRow = text.split('\n').find((line) => line.includes('Kiosk'))!;
    expect(kioskRow).toMatch(/Kiosk +│ — +│ — +│ — /);
    expect(text).toContain('no ETA');
  });

  it('unserved stops are listed with reason and message', () => {
    expect(text).toContain('Unserved: 1 stop');
    const row = text.split('\n').find((line) => line.includes('Far Away Farm'))!;
    expect(row).toContain('unreachable_in_shift');
    expect(text).toContain('no vehicle can reach it');
  });

  it('no colour unless asked; colour when asked', () => {
    expect(text).not.toMatch(ANSI);
    expect(renderPlanTables(plan, { color: true })).toMatch(ANSI);
  });

  it('benchmark plans (rawUnits) show plain numbers, not clock times', () => {
    const raw = renderPlanTables(plan, { color: false, rawUnits: true });
    expect(raw).toContain('Route 1: Van A — 28800 → 46800');
    expect(raw).toContain('distance 10600');
  });

  it('a plan with no routes still renders its summary', () => {
    const empty = buildPlan(sampleProblem(), {
      routes: [],
      unserved: [],
      stats: { elapsedMs: 0, iterations: 0, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'complete' },
    });
    const out = renderPlanTables(empty, { color: false });
    expect(out).toContain('0 routes');
    expect(out).not.toContain('Unserved');
  });
});

describe('buildGeoJson', () => {
  const geo = buildGeoJson(plan);

  it('is a FeatureCollection of route LineStrings and stop/start Points', () => {
    expect(geo.type).toBe('FeatureCollection');
    const lines = geo.features.filter((f) => f.geometry.type === 'LineString');
    const stops = geo.features.filter((f) => f.properties.kind === 'stop');
    const starts = geo.features.filter((f) => f.properties.kind === 'start');
    expect(lines).toHaveLength(2);
    expect(stops).toHaveLength(3);
    expect(starts).toHaveLength(2);
  });

  it('coordinates are [lng, lat] and a route runs start → stops → end', () => {
    const van = geo.features.find((f) => f.geometry.type === 'LineString' && f.properties.vehicle === 'Van A')!;
    expect(van.geometry.coordinates).toEqual([
      [4.85, 45.75],
      [4.83, 45.76],
      [4.84, 45.77],
      [4.85, 45.75],
    ]);
  });

  it('an open route ends at its last stop', () => {
    const bike = geo.features.find((f) => f.geometry.type === 'LineString' && f.properties.vehicle === 'Bike B')!;
    expect(bike.geometry.coordinates).toEqual([
      [4.85, 45.75],
      [4.86, 45.74],
    ]);
    expect(bike.properties.open_end).toBe(true);
  });

  it('stop points carry the visit fields and passthrough as properties', () => {
    const cafe = geo.features.find((f) => f.properties.stop === 'Café Mercier')!;
    expect(cafe.geometry).toEqual({ type: 'Point', coordinates: [4.83, 45.76] });
    expect(cafe.properties).toMatchObject({ kind: 'stop', vehicle: 'Van A', order: 1, arrival: '08:05', notes: 'ring twice' });
  });

  it('unserved stops with a location are points of kind unserved, with reason', () => {
    const unserved = geo.features.filter((f) => f.properties.kind === 'unserved');
    expect(unserved).toHaveLength(1);
    expect(unserved[0]!.geometry.type).toBe('Point');
    expect(unserved[0]!.properties).toMatchObject({ stop: 'Far Away Farm', reason: 'unreachable_in_shift' });
  });

  it('every position is a finite [lng, lat] pair within range (valid GeoJSON)', () => {
    const positions = geo.features.flatMap((f) => (f.geometry.type === 'Point' ? [f.geometry.coordinates] : f.geometry.coordinates));
    for (const [lng, lat] of positions) {
      expect(Number.isFinite(lng) && lng >= -180 && lng <= 180).toBe(true);
      expect(Number.isFinite(lat) && lat >= -90 && lat <= 90).toBe(true);
    }
    for (const f of geo.features) if (f.geometry.type === 'LineString') expect(f.geometry.coordinates.length).toBeGreaterThanOrEqual(2);
  });
});

describe('renderPlanHtml', () => {
  const html = renderPlanHtml(plan, { title: 'Bakery — 2025-03-14' });

  it('is one self-contained page: no http(s) URLs, no external scripts, styles or images', () => {
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/<script[^>]*src=|<link[^>]*href=|<img[^>]*src=|url\(/i);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('</html>');
  });

  it('draws every route as an SVG polyline in a distinct colour', () => {
    const strokes = [...html.matchAll(/<polyline[^>]*stroke="([^"]+)"/g)].map((m) => m[1]);
    expect(strokes).toHaveLength(2);
    expect(new Set(strokes).size).toBe(2);
  });

  it('has a marker with a tooltip for every served stop, and a legend', () => {
    expect([...html.matchAll(/<circle /g)]).toHaveLength(3);
    expect(html).toMatch(/<title>Café Mercier — Van A #1: arrival 08:05/);
    expect(html).toContain('class="legend"');
    expect(html).toContain('Route 2: Bike B');
  });

  it('includes the route tables and unserved stops, with text escaped', () => {
    expect(html).toContain('<td>Boulangerie &lt;Nord&gt;</td>');
    expect(html).not.toContain('<Nord>');
    expect(html).toContain('unreachable_in_shift');
    expect(html).toContain('<title>Bakery — 2025-03-14</title>');
  });

  it('marks unserved stops on the map with their reason', () => {
    expect(html).toMatch(/<g class="unserved"><path [^>]*><title>Unserved: Far Away Farm \(unreachable_in_shift\)<\/title>/);
  });

  it('numbers the stops on the map in visiting order', () => {
    const labels = [...html.matchAll(/<text class="order"[^>]*>(\d+)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual(['1', '2', '1']);
  });

  it('draws a route along its road shape (routes[].geometry) when the plan has one, fitted into the view box', () => {
    const places = routeLocations(plan.routes[0]!);
    // A detour north of every place: the map must make room for the road, not only for the stops.
    const north = Math.max(...places.map((place) => place.lat)) + 0.05;
    const coordinates = places.flatMap((place, i): [number, number][] =>
      i === 0
        ? [[place.lng, place.lat]]
        : [
            [places[i - 1]!.lng, north],
            [place.lng, north],
            [place.lng, place.lat],
          ],
    );
    const roads = { ...plan, routes: [{ ...plan.routes[0]!, geometry: { type: 'LineString' as const, coordinates } }, plan.routes[1]!] };
    const drawn = renderPlanHtml(roads);
    const lines = [...drawn.matchAll(/<polyline points="([^"]+)"/g)].map((m) =>
      m[1]!.split(' ').map((pair) => pair.split(',').map(Number)),
    );
    expect(lines[0]).toHaveLength(coordinates.length);
    expect(lines[1]).toHaveLength(routeLocations(plan.routes[1]!).length);
    for (const [x, y] of lines.flat()) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(960);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(600);
    }
    // The detour is the top of the drawing.
    expect(Math.min(...lines[0]!.map(([, y]) => y!))).toBeLessThan(Math.min(...lines[1]!.map(([, y]) => y!)));
    expect(buildGeoJson(roads).features.find((feature) => feature.properties.kind === 'route')!.geometry.coordinates).toEqual(coordinates);
  });

  it('an empty plan still renders a page', () => {
    const empty = buildPlan(sampleProblem(), {
      routes: [],
      unserved: [],
      stats: { elapsedMs: 0, iterations: 0, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'complete' },
    });
    expect(renderPlanHtml(empty)).toContain('No routes to draw');
  });

  it('map coordinates stay inside the SVG view box', () => {
    const numbers = [...html.matchAll(/(?:cx|cy)="([\d.-]+)"/g)].map((m) => Number(m[1]));
    for (const n of numbers) {
      expect(n).toBeGreaterThanOrEqual(0);
      expect(n).toBeLessThanOrEqual(960);
    }
  });
});
