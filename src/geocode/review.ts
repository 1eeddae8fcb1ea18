/**
 * What a person should look at after geocoding (the addresses users ask about most): an address
 * that found nothing, one whose candidates lie far apart (which one was meant?), and one that
 * landed far from all the others — often a town of the same name elsewhere, or lat/lng swapped.
 */
import { haversineMetres } from '../model/travel.js';
import { farFromTheOthers } from '../model/outliers.js';
import type { Point } from '../model/problem.js';
import type { GeocodeResult } from './types.js';

/** Candidates further apart than this make an address ambiguous. */
export const AMBIGUOUS_METRES = 2_000;

/**
 * The results with their problems marked. `known` are the problem's places that already had
 * coordinates: together with the geocoded ones they say where the work is.
 */
export function reviewResults(results: GeocodeResult[], known: Point[]): GeocodeResult[] {
  const reviewed = results.map(markAmbiguous);
  const placedIndex = reviewed.flatMap((result, index) => (result.point && !result.problem ? [index] : []));
  const far = farFromTheOthers([...placedIndex.map((index) => reviewed[index]!.point!), ...known]);
  for (const place of far) {
    if (place.index >= placedIndex.length) continue; // one of the known places: not this review's to mark
    const result = reviewed[placedIndex[place.index]!]!;
    const hint = place.swapped ? '; its latitude and longitude look swapped' : '; check the address (a place of the same name elsewhere?)';
    reviewed[placedIndex[place.index]!] = {
      ...result,
      problem: 'outlier',
      message: `"${result.address}" landed ${Math.round(place.metres / 1000)} km from the other stops${hint}`,
    };
  }
  return reviewed;
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
