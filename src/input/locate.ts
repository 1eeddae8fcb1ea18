/**
 * Places given by their address only (decisions.md, "Geocoding"): without a geocoder, one error
 * lists every one of them; with one, they are geocoded, and what found nothing is an error naming
 * each (or, with allowUnresolved, a stop left unserved as missing_location). Ambiguous and
 * outlying results are warnings that name the stop.
 */
import { InputError, type Warning } from '../errors.js';
import { createGeocoder, geocodeAddresses, normalizeAddress, type GeocodeResult, type GeocoderSettings } from '../geocode/index.js';
import type { Point } from '../model/problem.js';
import type { PendingAddress, ProblemSpec } from './spec.js';
import type { LoadOptions } from './types.js';
import { isPlainObject } from './shape.js';

/** Every place waiting for the geocoder, in document order. */
export function pendingAddresses(spec: ProblemSpec): PendingAddress[] {
  return [
    ...spec.vehicles.flatMap((vehicle) => [vehicle.startAddress, vehicle.endAddress]),
    ...spec.stops.map((stop) => stop.address),
  ].filter((pending): pending is PendingAddress => pending !== undefined);
}

/**
 * Every location of a document given by its address only, as raw paths: without a geocoder they are
 * input errors, reported with the document's other errors in one pass.
 */
export function addressOnlyLocations(
  doc: Record<string, unknown>,
  kind: 'project' | 'oneoff',
): { parts: PropertyKey[]; address: string }[] {
  const found: { parts: PropertyKey[]; address: string }[] = [];
  const check = (location: unknown, parts: PropertyKey[], coordsGiven: (place: Record<string, unknown>) => boolean): void => {
    if (!isPlainObject(location) || coordsGiven(location) || typeof location.address !== 'string' || location.address.trim() === '') return;
    found.push({ parts, address: location.address });
  };
  const projectCoords = (place: Record<string, unknown>): boolean => place.coords != null;
  const oneoffCoords = (place: Record<string, unknown>): boolean => place.latitude != null || place.longitude != null;
  if (kind === 'project') {
    listOf(doc.drivers).forEach((driver, i) => {
      check(driver.start_location, ['drivers', i, 'start_location'], projectCoords);
      check(driver.end_location, ['drivers', i, 'end_location'], projectCoords);
    });
    listOf(doc.stops).forEach((stop, i) => check(stop.location, ['stops', i, 'location'], projectCoords));
    return found;
  }
  listOf(doc.routesData).forEach((route, i) => {
    const constraints = isPlainObject(route.constraints) ? route.constraints : {};
    for (const key of ['startLocations', 'endLocations']) {
      check(listOf(constraints[key])[0], ['routesData', i, 'constraints', key, 0], oneoffCoords);
    }
  });
  listOf(doc.ordersData).forEach((order, i) => check(listOf(order.locations)[0], ['ordersData', i, 'locations', 0], oneoffCoords));
  return found;
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map((entry) => (isPlainObject(entry) ? entry : {})) : [];
}

export async function locatePlaces(spec: ProblemSpec, options: LoadOptions): Promise<{ spec: ProblemSpec; warnings: Warning[] }> {
  const pending = pendingAddresses(spec);
  if (pending.length === 0 || !options.geocoder) return { spec, warnings: [] };
  const geocoder = await createGeocoder(options.geocoder);
  const known = knownPoints(spec);
  const results = await geocodeAddresses(
    geocoder,
    options.geocoder,
    pending.map((entry) => entry.address),
    known,
    options.onGeocodeProgress,
  );
  const resultOf = (entry: PendingAddress): GeocodeResult => results.get(normalizeAddress(entry.address))!;
  refuseUnresolved(spec, options, resultOf);
  return { spec: placed(spec, resultOf), warnings: pending.flatMap((entry) => warningOf(entry, resultOf(entry))) };
}

function knownPoints(spec: ProblemSpec): Point[] {
  return [...spec.vehicles.flatMap((vehicle) => [vehicle.start, vehicle.end]), ...spec.stops.map((stop) => stop.point)].filter(
    (point): point is Point => point !== null,
  );
}

/** A driver's place that found nothing is always an error (no route without it); a stop's, unless allowed. */
function refuseUnresolved(spec: ProblemSpec, options: LoadOptions, resultOf: (entry: PendingAddress) => GeocodeResult): void {
  const driverPlaces = spec.vehicles.flatMap((vehicle) => [vehicle.startAddress, vehicle.endAddress]);
  const unresolved = pendingAddresses(spec).filter(
    (entry) => !resultOf(entry).point && (driverPlaces.includes(entry) || !options.allowUnresolved),
  );
  if (unresolved.length === 0) return;
  const details = unresolved.map((entry) => ({ path: entry.path, message: resultOf(entry).message ?? `"${entry.address}" was not found` }));
  const hint = unresolved.every((entry) => !driverPlaces.includes(entry)) ? ' (or --allow-unresolved to leave those stops unserved)' : '';
  throw new InputError(
    `${unresolved.length} address${unresolved.length === 1 ? '' : 'es'} could not be geocoded: fix ${unresolved.length === 1 ? 'it' : 'them'} or add coords${hint}`,
    details,
    'geocoding_failed',
  );
}

function placed(spec: ProblemSpec, resultOf: (entry: PendingAddress) => GeocodeResult): ProblemSpec {
  const point = (entry: PendingAddress | undefined, given: Point | null): Point | null => {
    const found = entry ? resultOf(entry).point : undefined;
    return found ? { lat: found.lat, lng: found.lng } : given;
  };
  return {
    ...spec,
    vehicles: spec.vehicles.map(({ startAddress, endAddress, ...vehicle }) => ({
      ...vehicle,
      start: point(startAddress, vehicle.start),
      end: point(endAddress, vehicle.end),
    })),
    stops: spec.stops.map(({ address, ...stop }) => ({ ...stop, point: point(address, stop.point) })),
  };
}

function warningOf(entry: PendingAddress, result: GeocodeResult): Warning[] {
  if (!result.point)
    return [
      {
        path: entry.path,
        message: `${result.message ?? `"${entry.address}" was not found`}; the stop is left unserved (missing_location)`,
      },
    ];
  return result.problem ? [{ path: entry.path, message: result.message ?? result.problem }] : [];
}

/** Where a location's coordinates go: a project location's `coords`, a one-off entry's latitude/longitude. */
export function coordinateFields(kind: 'project' | 'oneoff', point: Point): Record<string, unknown> {
  return kind === 'project' ? { coords: { lat: point.lat, lng: point.lng } } : { latitude: point.lat, longitude: point.lng };
}

/** A copy of the document with the given places' coordinates filled in (the input object is left as it was). */
export function withCoordinates(
  doc: Record<string, unknown>,
  kind: 'project' | 'oneoff',
  placed: { parts: PropertyKey[]; point: Point }[],
): Record<string, unknown> {
  const copy = structuredClone(doc);
  for (const { parts, point } of placed) {
    const target = parts.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown>)[key], copy) as Record<string, unknown>;
    Object.assign(target, coordinateFields(kind, point));
  }
  return copy;
}

/**
 * The document with every address-only place geocoded (what `submit` sends when a geocoder is
 * configured). Throws the InputError naming each address that found nothing.
 */
export async function geocodeDocument(
  doc: Record<string, unknown>,
  kind: 'project' | 'oneoff',
  settings: GeocoderSettings,
): Promise<{ document: Record<string, unknown>; warnings: Warning[] }> {
  const places = addressOnlyLocations(doc, kind);
  if (places.length === 0) return { document: doc, warnings: [] };
  const results = await geocodeAddresses(
    await createGeocoder(settings),
    settings,
    places.map((place) => place.address),
    [],
  );
  const placed = places.map((place) => ({ ...place, result: results.get(normalizeAddress(place.address))! }));
  const missing = placed.filter((place) => !place.result.point);
  const pathOf = (parts: PropertyKey[]): string =>
    parts.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
  if (missing.length > 0) {
    throw new InputError(
      `${missing.length} address${missing.length === 1 ? '' : 'es'} could not be geocoded: fix ${missing.length === 1 ? 'it' : 'them'} or add coords`,
      missing.map((place) => ({ path: pathOf(place.parts), message: place.result.message ?? 'not found' })),
      'geocoding_failed',
    );
  }
  return {
    document: withCoordinates(
      doc,
      kind,
      placed.map((place) => ({ parts: place.parts, point: place.result.point! })),
    ),
    warnings: placed
      .filter((place) => place.result.problem)
      .map((place) => ({ path: pathOf(place.parts), message: place.result.message ?? place.result.problem! })),
  };
}
