/** The short human summary `routeplan validate` prints. */
import { SCALAR_DIMENSION } from '../model/problem.js';
import type { Problem } from '../model/problem.js';
import { formatClock } from '../model/time.js';
import type { LoadedProblem } from './types.js';

export function problemSummaryLines(loaded: LoadedProblem): string[] {
  const { problem } = loaded;
  const lines = [headline(loaded), vehiclesLine(problem), stopsLine(problem), `Locations: ${problem.locations.length} distinct`];
  lines.push(loadsLine(problem));
  if (problem.surface !== 'benchmark') {
    const windows = windowsLine(problem);
    if (windows) lines.push(windows);
  }
  const features = featureList(problem);
  lines.push(`Features: ${features.length > 0 ? features.join(', ') : 'none beyond the basics'}`);
  if (loaded.warnings.length > 0) lines.push(`Warnings: ${loaded.warnings.length}`);
  return lines;
}

function headline({ problem, kind }: LoadedProblem): string {
  if (kind === 'project') return `Project "${problem.name ?? ''}" for ${problem.date ?? 'no date'}`;
  if (kind === 'oneoff') return 'One-off request (no date; clock times of one day)';
  return `Benchmark instance ${problem.name ?? ''}`.trim();
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function vehiclesLine(problem: Problem): string {
  const { vehicles } = problem;
  const parts: string[] = [];
  const labels = [...new Set(vehicles.flatMap((v) => v.labels))];
  if (labels.length > 0) parts.push(`${problem.surface === 'oneoff' ? 'tags' : 'types'}: ${labels.join(', ')}`);
  const withBreaks = vehicles.filter((v) => v.breaks.length > 0).length;
  if (withBreaks > 0) parts.push(`${withBreaks} with breaks`);
  const open = vehicles.filter((v) => v.endLocation < 0).length;
  if (open > 0) parts.push(`${open} open-ended`);
  const shifts = vehicles.filter((v) => v.shiftStartGiven || v.shiftEnd !== Infinity).length;
  if (shifts > 0 && problem.surface !== 'benchmark') parts.push(`${shifts} with shift times`);
  const speeds = [...new Set(vehicles.map((v) => v.speed))].filter((s) => s !== 1);
  if (speeds.length > 0) parts.push(`speeds ×${speeds.join(', ×')}`);
  return `Vehicles: ${vehicles.length}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`;
}

function stopsLine(problem: Problem): string {
  const { stops } = problem;
  const parts: string[] = [];
  const windowed = stops.filter((s) => !(s.windows.length === 1 && s.windows[0]!.start === 0 && s.windows[0]!.end === Infinity));
  if (windowed.length > 0) parts.push(`${windowed.length} with time windows`);
  const several = stops.filter((s) => s.windows.length > 1).length;
  if (several > 0) parts.push(`${several} with several windows`);
  const labelled = stops.filter((s) => s.labels.length > 0).length;
  if (labelled > 0) parts.push(`${labelled} with ${problem.surface === 'oneoff' ? 'tags' : 'types'}`);
  const noDuration = stops.filter((s) => !s.durationGiven).length;
  if (noDuration > 0 && problem.surface === 'project') parts.push(`${noDuration} without duration (no ETAs)`);
  const noLocation = stops.filter((s) => s.location < 0).length;
  if (noLocation > 0) parts.push(`${noLocation} without location`);
  return `Stops: ${stops.length}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`;
}

function loadsLine(problem: Problem): string {
  if (problem.dimensions.length === 0) return 'Loads: ignored (no vehicle has a capacity)';
  const names = problem.dimensions.map((d) => (d === SCALAR_DIMENSION ? 'number' : d));
  return `Loads: ${plural(names.length, 'dimension')} (${names.join(', ')})`;
}

function windowsLine(problem: Problem): string | null {
  const starts = problem.stops.flatMap((s) => s.windows.map((w) => w.start)).filter((t) => t > 0);
  const ends = problem.stops.flatMap((s) => s.windows.map((w) => w.end)).filter((t) => t !== Infinity);
  if (starts.length === 0 && ends.length === 0) return null;
  const from = starts.length > 0 ? formatClock(Math.min(...starts)) : 'any time';
  const to = ends.length > 0 ? formatClock(Math.max(...ends)) : 'open';
  return `Time windows: from ${from} to ${to}`;
}

function featureList(problem: Problem): string[] {
  const features: string[] = [];
  if (problem.stops.some((s) => s.priority !== 5) && problem.surface !== 'benchmark') features.push('priorities');
  if (problem.vehicles.some((v) => v.breaks.length > 0)) features.push('breaks');
  const overnight =
    problem.stops.some((s) => s.windows.some((w) => w.end !== Infinity && w.end > 86_400)) ||
    problem.vehicles.some((v) => v.shiftEnd !== Infinity && v.shiftEnd > 86_400);
  if (overnight && problem.surface !== 'benchmark') features.push('overnight times');
  if (problem.vehicles.some((v) => v.shiftStartGiven && !v.flexibleStart)) features.push('strict start');
  if (problem.objective.minimizeRoutes) features.push('minimize routes');
  if (problem.objective.cost === 'distance') features.push('shortest distance');
  if (problem.objective.balance !== 'none')
    features.push(`balance by ${problem.objective.balance === 'orders' ? 'orders' : 'working time'}`);
  if (problem.squashDuration !== null) features.push(`squash duration ${problem.squashDuration / 60} min`);
  if (problem.allowOverload) features.push('capacity overload allowed');
  const lateness = problem.stops[0]?.maxLateness ?? 0;
  if (lateness > 0) features.push(lateness === Infinity ? 'lateness allowed' : `lateness up to ${lateness / 60} min`);
  const overtime = problem.vehicles[0]?.maxOvertime ?? 0;
  if (overtime > 0) features.push(overtime === Infinity ? 'overtime allowed' : `overtime up to ${overtime / 60} min`);
  if (problem.travelSource.kind === 'geo' && problem.travelSource.traffic !== 1) features.push(`traffic ×${problem.travelSource.traffic}`);
  return features;
}
