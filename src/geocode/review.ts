/**
 * What a person should look at after geocoding (the addresses users ask about most): an address
 * that found nothing, one whose candidates lie far apart (which one was meant?), and one that
 * landed far from all the others — often a town of the same name elsewhere, or lat/lng swapped.
 */
import { haversineMetres } from '../model/travel.js';
import type { Point } from '../model/problem.js';
import type { GeocodeResult } from './types.js';

/** Candidates further apart than this make an address ambiguous. */
export const AMBIGUOUS_METRES = 2_000;
/** A place this far from the middle of the others (and five times their typical distance) is an outlier. */
export const OUTLIER_METRES = 50_000;

/**
 * The results with their problems marked. `known` are the problem's places that already had
 * coordinates: together with the geocoded ones they say where the work is.
 */
export function reviewResults(results: GeocodeResult[], known: Point[]): GeocodeResult[] {
  const reviewed = results.map(markAmbiguous);
  const placed = [...known, ...reviewed.flatMap((result) => (result.point ? [result.point] : []))];
  if (placed.length < 3) return reviewed;
  const middle = medianPoint(placed);
  const typical = median(placed.map((point) => haversineMetres(point, middle)));
  const limit = Math.max(OUTLIER_METRES, 5 * typical);
  return reviewed.map((result) => {
    if (!result.point || result.problem) return result;
    const away = haversineMetres(result.point, middle);
    if (away <= limit) return result;
    const swapped = haversineMetres({ lat: result.point.lng, lng: result.point.lat }, middle) <= limit;
    const hint = swapped ? '; its latitude and longitude look swapped' : '; check the address (a place of the same name elsewhere?)';
    return {
      ...result,
      problem: 'outlier',
      message: `"${result.address}" landed ${Math.round(away / 1000)} km from the other stops${hint}`,
    };
  });
}

function markAmbiguous(result: GeocodeResult): GeocodeResult {
  if (!result.point || result.problem) return result;
  const far = result.candidates.find((candidate) => haversineMetres(candidate, result.point!) > AMBIGUOUS_METRES);
  if (!far) return result;
  return {
    ...result,
    problem: 'ambiguous',
    message: `"${result.address}" matches places ${(haversineMetres(far, result.point) / 1000).toFixed(1)} km apart ("${result.point.label}" and "${far.label}"); the first was used — add the town or postcode to be sure`,
  };
}

function medianPoint(points: Point[]): Point {
  return { lat: median(points.map((point) => point.lat)), lng: median(points.map((point) => point.lng)) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
