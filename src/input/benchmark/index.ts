/**
 * Benchmark instance formats: Solomon / Gehring–Homberger VRPTW text and CVRPLIB (X set).
 * OWNER: benchmark helper.
 */
import type { Problem } from '../../model/problem.js';

export type BenchmarkFormat = 'solomon' | 'vrplib';

/** Parses an instance's text into a Problem (travelSource `euclidean`). Throws InputError on malformed text. */
export function loadBenchmarkText(_text: string, _format: BenchmarkFormat, _name: string): Problem {
  throw new Error('not implemented yet');
}
