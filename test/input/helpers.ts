/** Small documents for the input tests: a valid minimal project and one-off to vary per rule. */
import type { InputError } from '../../src/errors.js';
import type { ErrorDetail } from '../../src/errors.js';
import { loadProblemDocument } from '../../src/input/index.js';
import type { LoadedProblem, LoadOptions, DocumentKind } from '../../src/input/index.js';

export const BAKERY = { lat: 45.7622, lng: 4.8272 };

export function stop(name: string, extra: Record<string, unknown> = {}, coords = { lat: 45.7597, lng: 4.8262 }) {
  return { name, location: { coords }, ...extra };
}

export function driver(name: string, extra: Record<string, unknown> = {}) {
  return { name, start_location: { coords: BAKERY }, ...extra };
}

export function project(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Test project',
    date: '2024-05-14',
    drivers: [driver('Camille')],
    stops: [stop('Café du Soleil')],
    ...overrides,
  };
}

export const DEPOT = { latitude: 45.729, longitude: 4.827 };

export function route(name: string, constraints: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return { name, constraints: { startLocations: [DEPOT], ...constraints }, ...extra };
}

export function order(name: string, extra: Record<string, unknown> = {}, at = { latitude: 45.7505, longitude: 4.8416 }) {
  return { name, locations: [at], ...extra };
}

export function oneoff(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { routesData: [route('Van 1')], ordersData: [order('Mme Martin')], ...overrides };
}

export function load(document: unknown, options: LoadOptions & { expect?: DocumentKind } = {}): LoadedProblem {
  return loadProblemDocument(document, options);
}

export { inputError, inputErrorAsync } from '../support/input-error.js';

export function detailAt(error: InputError, path: string): ErrorDetail {
  const detail = error.details.find((d) => d.path === path);
  if (!detail) throw new Error(`no detail at ${path}; details: ${JSON.stringify(error.details)}`);
  return detail;
}
