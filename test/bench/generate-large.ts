/**
 * A realistic large problem for the scale bench: a metropolitan parcel operation around Berlin
 * with several hubs, clustered customers, a mix of time windows (none, morning/afternoon,
 * two-hour slots, "after"), capacities, vehicle types (refrigerated, tail lift) or one-off tags,
 * priorities, breaks and open routes. Deterministic for a seed.
 *
 *   node dist/test/bench/generate-large.js --stops 5000 --vehicles 500 --seed 1 [--kind project|oneoff] > big.json
 */
import { pathToFileURL } from 'node:url';
import { seededRandom } from '../support/problem-builder.js';

export type LargeKind = 'project' | 'oneoff';

export interface LargeProblemOptions {
  stops: number;
  vehicles: number;
  seed: number;
  kind: LargeKind;
}

type Random = () => number;

const CENTER = { lat: 52.52, lng: 13.405 };
const KM_PER_DEG_LAT = 111.32;
const KM_PER_DEG_LNG = KM_PER_DEG_LAT * Math.cos((CENTER.lat * Math.PI) / 180);

interface Coord {
  lat: number;
  lng: number;
}

function offsetKm(from: Coord, eastKm: number, northKm: number): Coord {
  return {
    lat: round6(from.lat + northKm / KM_PER_DEG_LAT),
    lng: round6(from.lng + eastKm / KM_PER_DEG_LNG),
  };
}

const round6 = (v: number): number => Math.round(v * 1e6) / 1e6;

function gaussian(random: Random): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

const clock = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Hubs on a ring 8–14 km from the centre, one per ~80 vehicles (at least 3). */
function makeHubs(random: Random, vehicles: number): Coord[] {
  const count = Math.max(3, Math.min(8, Math.round(vehicles / 80)));
  return Array.from({ length: count }, (_, i) => {
    const angle = (2 * Math.PI * i) / count + random() * 0.3;
    const radius = 8 + random() * 6;
    return offsetKm(CENTER, radius * Math.cos(angle), radius * Math.sin(angle));
  });
}

/** Customers cluster around neighbourhood centres; a tenth are scattered over the whole area. */
function makeCustomerPoints(random: Random, count: number): Coord[] {
  const neighbourhoods = Array.from({ length: 40 }, () => {
    const radius = 22 * Math.sqrt(random());
    const angle = 2 * Math.PI * random();
    return { centre: offsetKm(CENTER, radius * Math.cos(angle), radius * Math.sin(angle)), spreadKm: 0.6 + random() * 1.8 };
  });
  return Array.from({ length: count }, () => {
    if (random() < 0.1) return offsetKm(CENTER, (random() - 0.5) * 50, (random() - 0.5) * 50);
    const n = pick(random, neighbourhoods);
    return offsetKm(n.centre, gaussian(random) * n.spreadKm, gaussian(random) * n.spreadKm);
  });
}

/** A window in minutes since midnight: [start, end], [start, null] ("after"), or null (any time). */
type WindowMinutes = [number, number | null] | null;

function makeWindow(random: Random): WindowMinutes {
  const r = random();
  if (r < 0.35) return null;
  if (r < 0.55) return [480, 720]; // morning 08:00–12:00
  if (r < 0.75)
    return pick(random, [
      [720, 1020],
      [780, 1080],
    ] as [number, number][]);
  if (r < 0.93) {
    const start = 480 + 30 * Math.floor(random() * 17); // 08:00 … 16:00
    return [start, start + 120];
  }
  return [600 + 60 * Math.floor(random() * 4), null]; // "after 10:00" … "after 13:00"
}

function makeStopLabels(random: Random): string[] {
  const r = random();
  if (r < 0.08) return ['refrigerated'];
  if (r < 0.12) return ['tail-lift'];
  if (r < 0.14) return ['refrigerated', 'tail-lift'];
  return [];
}

function makeVehicleLabels(random: Random): string[] {
  const r = random();
  if (r < 0.12) return ['refrigerated'];
  if (r < 0.2) return ['tail-lift'];
  if (r < 0.23) return ['refrigerated', 'tail-lift'];
  return [];
}

function makePriority(random: Random): string | number | undefined {
  const r = random();
  if (r < 0.7) return undefined;
  if (r < 0.78) return 'high';
  if (r < 0.88) return 'low';
  if (r < 0.93) return 'regular';
  return pick(random, [2, 20, 50, 100, 1000]);
}

interface VehiclePlan {
  name: string;
  hub: Coord;
  hubNumber: number;
  open: boolean;
  shiftStart: number | null;
  shiftEnd: number;
  capacity: number;
  labels: string[];
  slow: boolean;
  breakStart: number | null;
}

function makeVehicles(random: Random, count: number, hubs: Coord[]): VehiclePlan[] {
  return Array.from({ length: count }, (_, i) => {
    const start = pick(random, [420, 450, 480, 480, 540]);
    const slow = random() < 0.1; // heavy trucks
    return {
      name: `Driver ${i + 1}`,
      hub: hubs[i % hubs.length]!,
      hubNumber: (i % hubs.length) + 1,
      open: random() < 0.1,
      shiftStart: random() < 0.05 ? null : start,
      shiftEnd: start + pick(random, [480, 540, 600]),
      capacity: slow ? 300 : pick(random, [100, 120, 150]),
      labels: makeVehicleLabels(random),
      slow,
      breakStart: random() < 0.4 ? pick(random, [720, 750, 780]) : null,
    };
  });
}

interface StopPlan {
  name: string;
  point: Coord;
  window: WindowMinutes;
  duration: number | undefined;
  load: number | undefined;
  labels: string[];
  priority: string | number | undefined;
}

function makeStops(random: Random, count: number): StopPlan[] {
  return makeCustomerPoints(random, count).map((point, i) => ({
    name: `Customer ${i + 1}`,
    point,
    window: makeWindow(random),
    duration: random() < 0.3 ? undefined : pick(random, [3, 4, 5, 6, 8, 10, 12, 2.5, 7.5]),
    load: random() < 0.2 ? undefined : 1 + Math.floor(random() * 15),
    labels: makeStopLabels(random),
    priority: makePriority(random),
  }));
}

export function generateLargeProblem(options: LargeProblemOptions): Record<string, unknown> {
  const random = seededRandom(options.seed);
  const hubs = makeHubs(random, options.vehicles);
  const vehicles = makeVehicles(random, options.vehicles, hubs);
  const stops = makeStops(random, options.stops);
  return options.kind === 'project' ? toProject(vehicles, stops, options) : toOneoff(vehicles, stops);
}

function toProject(vehicles: VehiclePlan[], stops: StopPlan[], options: LargeProblemOptions): Record<string, unknown> {
  const drivers = vehicles.map((v, i) => ({
    name: v.name,
    start_location: { address: `Hub ${v.hubNumber}`, coords: v.hub },
    ...(v.open ? {} : { end_location: { coords: v.hub } }),
    ...(v.shiftStart === null ? {} : { shift_start: clock(v.shiftStart) }),
    shift_end: clock(v.shiftEnd),
    capacity: v.capacity,
    ...(v.labels.length > 0 ? { types: v.labels } : {}),
    ...(v.slow ? { speed: 'slow' } : {}),
    ...(v.breakStart === null ? {} : { break: { start: clock(v.breakStart), end: clock(v.breakStart + 30) } }),
    phone_number: `+4930${String(1000000 + i).padStart(7, '0')}`,
  }));
  const projectStops = stops.map((s, i) => ({
    name: s.name,
    location: { coords: s.point },
    ...(s.window === null ? {} : { start: clock(s.window[0]) }),
    ...(s.window === null || s.window[1] === null ? {} : { end: clock(s.window[1]) }),
    ...(s.duration === undefined ? {} : { duration: s.duration }),
    ...(s.load === undefined ? {} : { load: s.load }),
    ...(s.labels.length > 0 ? { types: s.labels } : {}),
    ...(s.priority === undefined ? {} : { priority: s.priority }),
    ...(i % 10 === 0 ? { notes: 'Ring at the back door', custom_notes: { order: `ORD-${100000 + i}` } } : {}),
  }));
  return {
    name: `Large bench ${options.stops} stops / ${options.vehicles} drivers (seed ${options.seed})`,
    date: '2025-03-03',
    drivers,
    stops: projectStops,
    settings: { default_duration: 5, default_load: 1, traffic: 1.2, max_stop_lateness: 0, max_driver_overtime: 0 },
  };
}

function toOneoff(vehicles: VehiclePlan[], stops: StopPlan[]): Record<string, unknown> {
  const entry = (c: Coord) => ({ latitude: c.lat, longitude: c.lng });
  const routesData = vehicles.map((v) => ({
    name: v.name,
    constraints: {
      ...(v.shiftStart === null ? {} : { startTime: clock(v.shiftStart) }),
      endTime: clock(v.shiftEnd),
      capacity: v.capacity,
      startLocations: [entry(v.hub)],
      ...(v.open ? {} : { endLocations: [entry(v.hub)] }),
      ...(v.labels.length > 0 ? { tags: v.labels } : {}),
    },
  }));
  const ordersData = stops.map((s, i) => ({
    name: s.name,
    locations: [entry(s.point)],
    ...(s.duration === undefined ? {} : { duration: s.duration }),
    ...(s.load === undefined ? {} : { load: s.load }),
    ...(s.window === null
      ? {}
      : { timeWindows: [{ startTime: clock(s.window[0]), ...(s.window[1] === null ? {} : { endTime: clock(s.window[1]) }) }] }),
    // One-off tags are all-of: an order asks for at most one tag so that some vehicle has it.
    ...(s.labels.length > 0 ? { tags: [s.labels[0]!] } : {}),
    displayOrderId: `ORD-${100000 + i}`,
  }));
  return { routesData, ordersData, options: { flexibleStartTime: true, defaultOrderDuration: 5, squashDuration: 1 } };
}

const NUMERIC_FLAGS: Partial<Record<string, 'stops' | 'vehicles' | 'seed'>> = {
  '--stops': 'stops',
  '--vehicles': 'vehicles',
  '--seed': 'seed',
};

function parseGeneratorArgs(argv: string[]): LargeProblemOptions {
  const options: LargeProblemOptions = { stops: 5000, vehicles: 500, seed: 1, kind: 'project' };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--kind') {
      if (value !== 'project' && value !== 'oneoff') throw new Error(`--kind must be project or oneoff; got "${value}"`);
      options.kind = value;
      continue;
    }
    const number = Number(value);
    const key = NUMERIC_FLAGS[flag];
    if (key === undefined) throw new Error(`unknown option ${flag} (use --stops, --vehicles, --seed, --kind)`);
    if (!Number.isInteger(number) || number < (key === 'seed' ? 0 : 1)) throw new Error(`${flag} must be a whole number; got "${value}"`);
    options[key] = number;
  }
  return options;
}

function main(): void {
  try {
    const options = parseGeneratorArgs(process.argv.slice(2));
    process.stdout.write(JSON.stringify(generateLargeProblem(options)) + '\n');
  } catch (error) {
    process.stderr.write(`generate-large: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
