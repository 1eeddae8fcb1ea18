/** decisions.md: at most 500 vehicles and 5,000 stops, for both surfaces. */
import type { ErrorDetail } from '../errors.js';

const MAX_VEHICLES = 500;
const MAX_STOPS = 5000;

export function limitErrors(document: Record<string, unknown>, vehiclesKey: string, stopsKey: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const vehicles = document[vehiclesKey];
  const stops = document[stopsKey];
  if (Array.isArray(vehicles) && vehicles.length > MAX_VEHICLES) {
    details.push({
      path: vehiclesKey,
      message: `has ${vehicles.length.toLocaleString('en-US')} entries; at most ${MAX_VEHICLES} vehicles are allowed`,
    });
  }
  if (Array.isArray(stops) && stops.length > MAX_STOPS) {
    details.push({
      path: stopsKey,
      message: `has ${stops.length.toLocaleString('en-US')} entries; at most ${MAX_STOPS.toLocaleString('en-US')} stops are allowed`,
    });
  }
  return details;
}
