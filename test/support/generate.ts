/**
 * Seeded random problem generator for property tests: RAW input documents, exactly as a user
 * would write them (surface A project JSON, surface B one-off JSON, per interface.md and
 * decisions.md), with every feature switched on by default. The geography is a city about
 * 20 km across: clustered neighbourhoods, shared addresses (apartment blocks), a couple of depots.
 *
 * The same seed always gives the same document.
 */

export interface GenerateOptions {
  /** Number of stops/orders (30–1,000 is the intended range; any positive count works). */
  stops: number;
  /** Number of drivers/routes; default about one per 12 stops. */
  drivers?: number;
  features?: Partial<Features>;
}

export interface Features {
  /** Time windows on stops (one or several for one-off orders). */
  windows: boolean;
  /** Overnight shifts (22:00–06:00 style); `'sometimes'` lets the seed decide. */
  overnight: boolean | 'sometimes';
  breaks: boolean;
  capacities: boolean;
  /** Object loads/capacities (`{weight, volume}`), projects only. */
  objectLoads: boolean | 'sometimes';
  /** Project types / one-off tags. */
  types: boolean;
  priorities: boolean;
  speeds: boolean;
  openRoutes: boolean;
  /** Lateness and overtime allowances (project bounds, one-off flags). */
  allowances: boolean;
  /** Some stops that cannot be served at all (bad types, too-long duration, too big a load). */
  impossibleStops: boolean;
  /** Stops sharing coordinates (squashDuration applies to them). */
  sharedAddresses: boolean;
  /** Free-form carried-through fields (notes, email, …). */
  passthrough: boolean;
  /** Stop durations; false leaves every duration and default out (project ETAs become null). */
  durations: boolean;
  /** Share of drivers with a break (0–1). */
  breakShare: number;
  /** Share of stops at an already used address (0–1). */
  sharedShare: number;
  /** Windows barely longer than the service (0–10 minutes of slack), on nearly every stop. */
  tightWindows: boolean;
}

const ALL_FEATURES: Features = {
  windows: true,
  overnight: 'sometimes',
  breaks: true,
  capacities: true,
  objectLoads: 'sometimes',
  types: true,
  priorities: true,
  speeds: true,
  openRoutes: true,
  allowances: true,
  impossibleStops: true,
  sharedAddresses: true,
  passthrough: true,
  durations: true,
  breakShare: 0.5,
  sharedShare: 0.12,
  tightWindows: false,
};

// ---------------------------------------------------------------------------------------------
// Randomness
// ---------------------------------------------------------------------------------------------

/** mulberry32: small, fast, good enough for test data, and identical on every platform. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = (seed ^ 0x9e3779b9) >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}

// ---------------------------------------------------------------------------------------------
// Geography
// ---------------------------------------------------------------------------------------------

interface LatLng {
  lat: number;
  lng: number;
}

const CITIES: { name: string; centre: LatLng }[] = [
  { name: 'Berlin', centre: { lat: 52.52, lng: 13.405 } },
  { name: 'Lyon', centre: { lat: 45.764, lng: 4.8357 } },
  { name: 'Austin', centre: { lat: 30.2672, lng: -97.7431 } },
  { name: 'Melbourne', centre: { lat: -37.8136, lng: 144.9631 } },
];

const METRES_PER_DEGREE_LAT = 111_195;

class City {
  readonly centre: LatLng;
  private readonly clusters: LatLng[];
  private readonly used: LatLng[] = [];

  constructor(
    private readonly rng: Random,
    private readonly sharedShare = 0.12,
  ) {
    this.centre = rng.pick(CITIES).centre;
    this.clusters = Array.from({ length: rng.int(4, 9) }, () => this.offset(this.centre, 6000 * Math.sqrt(rng.next())));
  }

  /** A point at `metres` from `from` in a random direction, kept within 10 km of the centre. */
  private offset(from: LatLng, metres: number): LatLng {
    const angle = 2 * Math.PI * this.rng.next();
    const point = {
      lat: from.lat + (metres * Math.sin(angle)) / METRES_PER_DEGREE_LAT,
      lng: from.lng + (metres * Math.cos(angle)) / (METRES_PER_DEGREE_LAT * Math.cos((from.lat * Math.PI) / 180)),
    };
    return this.withinCity(point);
  }

  private withinCity(point: LatLng): LatLng {
    const dy = (point.lat - this.centre.lat) * METRES_PER_DEGREE_LAT;
    const dx = (point.lng - this.centre.lng) * METRES_PER_DEGREE_LAT * Math.cos((this.centre.lat * Math.PI) / 180);
    const r = Math.hypot(dx, dy);
    if (r <= 10_000) return point;
    const shrink = 10_000 / r;
    return {
      lat: this.centre.lat + (point.lat - this.centre.lat) * shrink,
      lng: this.centre.lng + (point.lng - this.centre.lng) * shrink,
    };
  }

  depot(): LatLng {
    return round6(this.offset(this.centre, 3000 * this.rng.next()));
  }

  /** A customer address: mostly in a neighbourhood cluster, sometimes anywhere, sometimes a shared building. */
  address(shared: boolean): LatLng {
    if (shared && this.used.length > 0 && this.rng.chance(this.sharedShare)) return this.rng.pick(this.used);
    const point = this.rng.chance(0.8)
      ? this.offset(this.rng.pick(this.clusters), Math.abs(this.rng.normal()) * 1200)
      : this.offset(this.centre, 10_000 * Math.sqrt(this.rng.next()));
    const rounded = round6(point);
    this.used.push(rounded);
    return rounded;
  }
}

function round6(p: LatLng): LatLng {
  return { lat: Math.round(p.lat * 1e6) / 1e6, lng: Math.round(p.lng * 1e6) / 1e6 };
}

// ---------------------------------------------------------------------------------------------
// Clock helpers
// ---------------------------------------------------------------------------------------------

/** `HH:mm` for minutes since midnight (wrapping past 24 h, as a user writes an overnight time). */
function hhmm(minutes: number): string {
  const m = ((Math.round(minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Sometimes `H:mm` or `HH:mm:ss`, which decisions.md also accepts. */
function clockVariant(rng: Random, minutes: number): string {
  const text = hhmm(minutes);
  if (rng.chance(0.05)) return `${text}:00`;
  if (rng.chance(0.05) && text.startsWith('0')) return text.slice(1);
  return text;
}

interface DayShape {
  overnight: boolean;
  /** Minutes since midnight (may exceed 1440 for overnight). */
  shiftStart: number;
  shiftEnd: number;
}

function dayShape(rng: Random, features: Features): DayShape {
  const overnight = features.overnight === 'sometimes' ? rng.chance(0.25) : features.overnight;
  return overnight ? { overnight, shiftStart: 20 * 60, shiftEnd: 30 * 60 } : { overnight, shiftStart: 7 * 60, shiftEnd: 19 * 60 };
}

/** A window of 1–4 hours inside the working day, in minutes. */
function windowIn(rng: Random, day: DayShape): { start: number; end: number } {
  const length = rng.pick([60, 90, 120, 180, 240]);
  const earliest = day.shiftStart + 30;
  const latest = day.shiftEnd - length - 30;
  const drawn = earliest + 15 * Math.floor((rng.next() * (latest - earliest)) / 15);
  // A window starting after midnight of an overnight shift would be ambiguous in HH:mm
  // (it reads as the early morning of the plan's day), so overnight windows start before it.
  const start = day.overnight ? Math.min(drawn, 23 * 60 + 45) : drawn;
  return { start, end: start + length };
}

/** Several disjoint windows for one-off orders, sorted. */
function windowsIn(rng: Random, day: DayShape, count: number): { start: number; end: number }[] {
  const lastStart = day.overnight ? 24 * 60 : day.shiftEnd;
  const span = (lastStart - day.shiftStart - 60) / count;
  return Array.from({ length: count }, (_, i) => {
    const slotStart = day.shiftStart + 30 + i * span;
    const length = Math.min(span - 15, rng.pick([45, 60, 90, 120]));
    const start = slotStart + 15 * Math.floor((rng.next() * Math.max(0, span - length - 15)) / 15);
    return { start: Math.round(start), end: Math.round(start + length) };
  });
}

const TYPES = ['fridge', 'van', 'ladder', 'xl'] as const;
const SPEED_NAMES = ['faster', 'fast', 'normal', 'slow', 'very slow', 'bike'] as const;
const PRIORITY_WORDS = ['low', 'regular', 'high'] as const;
const FIRST_NAMES = ['Ana', 'Ben', 'Chen', 'Dara', 'Eli', 'Femi', 'Gus', 'Hana', 'Ivo', 'Jo', 'Kai', 'Lea'];
const SHOPS = ['Bakery', 'Pharmacy', 'Florist', 'Kiosk', 'Café', 'Office', 'Clinic', 'Studio', 'Deli', 'Library'];

function resolveFeatures(partial: Partial<Features> | undefined): Features {
  return { ...ALL_FEATURES, ...partial };
}

function driverCount(options: GenerateOptions): number {
  return options.drivers ?? Math.max(2, Math.min(500, Math.round(options.stops / 12)));
}

function phone(rng: Random): string {
  return `+49 30 ${rng.int(1000000, 9999999)}`;
}

// ---------------------------------------------------------------------------------------------
// Surface A: project
// ---------------------------------------------------------------------------------------------

/** A raw project document (POST /v1.0/project body) with every feature exercised. */
export function generateProject(seed: number, options: GenerateOptions): Record<string, unknown> {
  const rng = new Random(seed * 2 + 1);
  const features = resolveFeatures(options.features);
  const city = new City(rng, features.sharedShare);
  const day = dayShape(rng, features);
  const objectLoads = features.capacities && (features.objectLoads === 'sometimes' ? rng.chance(0.3) : features.objectLoads);
  const depots = [city.depot(), city.depot()];
  const drivers = Array.from({ length: driverCount(options) }, (_, i) => projectDriver(rng, features, day, depots, objectLoads, i));
  const stops = Array.from({ length: options.stops }, (_, i) => projectStop(rng, features, day, city, objectLoads, i));
  const settings = projectSettings(rng, features);
  if (!features.durations) delete settings.default_duration;
  return {
    name: `Generated project ${seed}`,
    date: `2025-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
    drivers,
    stops,
    settings,
  };
}

function location(rng: Random, point: LatLng, label: string): Record<string, unknown> {
  return rng.chance(0.5) ? { address: `${label}, ${rng.int(1, 200)} Main St`, coords: point } : { coords: point };
}

function projectDriver(
  rng: Random,
  features: Features,
  day: DayShape,
  depots: LatLng[],
  objectLoads: boolean,
  i: number,
): Record<string, unknown> {
  const depot = rng.pick(depots);
  const driver: Record<string, unknown> = {
    name: `${rng.pick(FIRST_NAMES)} ${i + 1}`,
    start_location: location(rng, depot, 'Depot'),
  };
  if (!(features.openRoutes && rng.chance(0.3))) driver.end_location = location(rng, rng.chance(0.8) ? depot : rng.pick(depots), 'Depot');
  if (day.overnight || rng.chance(0.85)) driver.shift_start = clockVariant(rng, day.shiftStart + rng.pick([0, 0, 30, 60, 90]));
  if (rng.chance(0.85)) driver.shift_end = clockVariant(rng, day.shiftEnd - rng.pick([0, 0, 60, 120, 180]));
  if (rng.chance(0.7)) driver.phone_number = phone(rng);
  if (features.speeds && rng.chance(0.6)) {
    driver.speed = rng.chance(0.6) ? rng.pick(SPEED_NAMES) : rng.pick([0.5, 0.8, 1, 1.2, 1.5, 2]);
  }
  if (features.capacities && rng.chance(0.85)) {
    driver.capacity = objectLoads
      ? rng.chance(0.8)
        ? { weight: rng.int(60, 200), volume: rng.int(4, 12) }
        : { weight: rng.int(60, 200) }
      : rng.int(12, 40);
  }
  if (features.types && rng.chance(0.5)) {
    const types = TYPES.slice(0, 3).filter(() => rng.chance(0.5));
    if (types.length > 0) driver.types = types.length === 1 && rng.chance(0.5) ? types[0] : types;
  }
  if (features.breaks && rng.chance(features.breakShare)) {
    const start = day.shiftStart + (day.overnight ? rng.pick([90, 120, 150]) : rng.pick([240, 270, 300, 330]));
    const brk = { start: hhmm(start), end: hhmm(start + rng.pick([15, 30, 45])) };
    if (rng.chance(0.4)) driver.break = brk;
    else if (rng.chance(0.5)) driver.breaks = [brk];
    else {
      // A short morning pause as well (before midnight on overnight shifts).
      const early = day.shiftStart + rng.pick([45, 60, 75]);
      driver.breaks = [{ start: hhmm(early), end: hhmm(early + 10) }, brk];
    }
  }
  return driver;
}

function projectStop(rng: Random, features: Features, day: DayShape, city: City, objectLoads: boolean, i: number): Record<string, unknown> {
  const point = city.address(features.sharedAddresses);
  const stop: Record<string, unknown> = {
    name: `${rng.pick(SHOPS)} #${i + 1}`,
    location: rng.chance(0.7) ? { coords: point } : { address: `${i + 1} Side St`, coords: point },
  };
  const duration = features.durations && rng.chance(0.85) ? rng.pick([3, 5, 5, 7.5, 10, 15, 20]) : undefined;
  if (features.windows && rng.chance(features.tightWindows ? 0.9 : 0.6)) {
    const w = windowIn(rng, day);
    if (features.tightWindows) w.end = w.start + Math.ceil(duration ?? 0) + rng.pick([0, 2, 5, 10]);
    const shape = features.tightWindows ? 0 : rng.next();
    if (shape < 0.9) stop.start = clockVariant(rng, w.start); // else only an end: "any time before end"
    if (features.tightWindows || shape < 0.75 || shape >= 0.9) stop.end = clockVariant(rng, w.end);
  }
  if (duration !== undefined) stop.duration = duration;
  if (features.capacities && rng.chance(0.8)) {
    stop.load = objectLoads ? { weight: rng.int(1, 20), volume: rng.int(0, 10) / 10 } : rng.int(1, 5);
  }
  if (features.types && rng.chance(0.2)) {
    const types = TYPES.slice(0, 3).filter(() => rng.chance(0.5));
    if (types.length > 0) stop.types = types.length === 1 && rng.chance(0.5) ? types[0] : types;
  }
  if (features.priorities && rng.chance(0.5)) {
    stop.priority = rng.chance(0.6) ? rng.pick(PRIORITY_WORDS) : rng.pick([1, 3, 5, 8, 10, 50, 100, 10000]);
  }
  if (features.passthrough) addProjectPassthrough(rng, stop, i);
  if (features.impossibleStops) makeSometimesImpossible(rng, stop, objectLoads, 'types');
  return stop;
}

function addProjectPassthrough(rng: Random, stop: Record<string, unknown>, i: number): void {
  if (rng.chance(0.3)) stop.phone_number = phone(rng);
  if (rng.chance(0.2)) stop.email = `customer${i + 1}@example.com`;
  if (rng.chance(0.3)) stop.notes = rng.pick(['Ring twice', 'Back door', 'Leave with neighbour']);
  if (rng.chance(0.2)) stop.custom_notes = { orderId: `ORD-${1000 + i}`, price: rng.int(5, 300) };
}

/** About 4% of stops become unservable in one of the ways the interface names. */
function makeSometimesImpossible(rng: Random, stop: Record<string, unknown>, objectLoads: boolean, typesField: 'types' | 'tags'): void {
  if (!rng.chance(0.04)) return;
  const kind = rng.int(0, 2);
  if (kind === 0) stop[typesField] = typesField === 'types' ? 'crane' : ['crane'];
  else if (kind === 1) stop.duration = 240;
  else stop.load = objectLoads ? { weight: 5000 } : 5000;
}

function projectSettings(rng: Random, features: Features): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  if (features.allowances && rng.chance(0.5)) settings.max_stop_lateness = rng.pick([0, 5, 10, 30]);
  if (features.allowances && rng.chance(0.5)) settings.max_driver_overtime = rng.pick([0, 15, 30, 60]);
  if (rng.chance(0.4)) settings.shortest_distance = rng.chance(0.5);
  if (rng.chance(0.4)) settings.traffic = rng.pick([1, 1.2, 1.5, 2]);
  if (rng.chance(0.6)) settings.strict_start = rng.chance(0.5);
  if (rng.chance(0.4)) settings.auto_balance = rng.chance(0.5);
  if (rng.chance(0.4)) settings.default_load = rng.pick([1, 2]);
  if (rng.chance(0.5)) settings.default_duration = rng.pick([4, 5, 8]);
  return settings;
}

// ---------------------------------------------------------------------------------------------
// Surface B: one-off schedule
// ---------------------------------------------------------------------------------------------

/** A raw one-off schedule request (POST /schedules body without workspaceUuid). */
export function generateOneOff(seed: number, options: GenerateOptions): Record<string, unknown> {
  const rng = new Random(seed * 2 + 2);
  const features = resolveFeatures(options.features);
  const city = new City(rng, features.sharedShare);
  const day = dayShape(rng, features);
  const depots = [city.depot(), city.depot()];
  const routesData = Array.from({ length: driverCount(options) }, (_, i) => oneOffRoute(rng, features, day, depots, i));
  const ordersData = Array.from({ length: options.stops }, (_, i) => oneOffOrder(rng, features, day, city, i));
  const requestOptions = oneOffOptions(rng, features);
  if (!features.durations) delete requestOptions.defaultOrderDuration;
  return { routesData, ordersData, options: requestOptions };
}

function locationEntry(rng: Random, point: LatLng, label: string): Record<string, unknown> {
  const entry: Record<string, unknown> = { latitude: point.lat, longitude: point.lng };
  if (rng.chance(0.5)) entry.address = `${label}, ${rng.int(1, 200)} High St`;
  return entry;
}

function oneOffRoute(rng: Random, features: Features, day: DayShape, depots: LatLng[], i: number): Record<string, unknown> {
  const depot = rng.pick(depots);
  const constraints: Record<string, unknown> = {
    startTime: clockVariant(rng, day.shiftStart + rng.pick([0, 0, 30, 60])),
    startLocations: [locationEntry(rng, depot, 'Depot')],
  };
  if (rng.chance(0.85)) constraints.endTime = clockVariant(rng, day.shiftEnd - rng.pick([0, 60, 120, 180]));
  if (!(features.openRoutes && rng.chance(0.3))) constraints.endLocations = [locationEntry(rng, depot, 'Depot')];
  if (features.capacities && rng.chance(0.85)) constraints.capacity = rng.int(12, 40);
  if (features.types && rng.chance(0.6)) constraints.tags = TYPES.filter(() => rng.chance(0.5));
  return { name: `Route ${i + 1}`, constraints };
}

function oneOffOrder(rng: Random, features: Features, day: DayShape, city: City, i: number): Record<string, unknown> {
  const point = city.address(features.sharedAddresses);
  const order: Record<string, unknown> = {
    name: `Order ${i + 1}`,
    locations: [locationEntry(rng, point, `Customer ${i + 1}`)],
  };
  // Several locations: the first is used (decisions.md), the rest only warned about.
  if (rng.chance(0.05)) (order.locations as unknown[]).push(locationEntry(rng, city.address(false), 'Alternative'));
  const duration = features.durations && rng.chance(0.85) ? rng.pick([2, 4, 5, 6.5, 10, 15]) : undefined;
  if (duration !== undefined) order.duration = duration;
  if (features.capacities && rng.chance(0.8)) order.load = rng.int(1, 5);
  if (features.windows && rng.chance(features.tightWindows ? 0.9 : 0.6)) {
    order.timeWindows = windowsIn(rng, day, rng.pick([1, 1, 2, 3])).map((w) => ({
      startTime: clockVariant(rng, w.start),
      endTime: clockVariant(rng, features.tightWindows ? w.start + Math.ceil(duration ?? 0) + rng.pick([0, 2, 5, 10]) : w.end),
    }));
  }
  if (features.types && rng.chance(0.25)) order.tags = TYPES.filter(() => rng.chance(0.3));
  if (features.passthrough) {
    if (rng.chance(0.5)) order.displayOrderId = `D-${i + 1}`;
    if (rng.chance(0.3)) order.customerOrderNumber = `C${100000 + i}`;
  }
  if (features.impossibleStops) makeSometimesImpossible(rng, order, false, 'tags');
  return order;
}

function oneOffOptions(rng: Random, features: Features): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (rng.chance(0.5)) options.minimizeRoutes = rng.chance(0.5);
  if (rng.chance(0.5)) options.balanceType = rng.pick(['none', 'orders']);
  if (rng.chance(0.6)) options.flexibleStartTime = rng.chance(0.5);
  if (rng.chance(0.2)) options.excludeTolls = rng.chance(0.5);
  if (rng.chance(0.2)) options.excludeFerry = rng.chance(0.5);
  if (features.sharedAddresses && rng.chance(0.6)) options.squashDuration = rng.pick([0, 1, 2, 3]);
  if (rng.chance(0.5)) options.defaultOrderDuration = rng.pick([3, 5, 8]);
  if (features.allowances) {
    if (rng.chance(0.4)) options.allowCapacityOverload = rng.chance(0.6);
    if (rng.chance(0.4)) options.allowRouteOvertime = rng.chance(0.6);
    if (rng.chance(0.4)) options.allowVisitLateness = rng.chance(0.6);
  }
  return options;
}
