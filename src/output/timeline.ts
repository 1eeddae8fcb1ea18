/**
 * A route's day as bars on one time axis: driving, waiting, service and breaks, each a span of
 * seconds since the plan's midnight. Built from the plan alone, for the page's timeline.
 */
import type { Plan, PlanRoute } from './plan-types.js';

export type TimelineKind = 'driving' | 'waiting' | 'service' | 'break';

export interface TimelineBar {
  kind: TimelineKind;
  from_s: number;
  to_s: number;
  /** The stop served, for service and the driving and waiting before it; '' otherwise. */
  stop: string;
}

/**
 * Driving ends at each arrival and lasts the leg's travel time; a break taken on the way
 * overlaps it and is listed after it, so it is drawn on top. A stop without ETAs (no
 * duration) has no times, so its leg has no bars.
 */
export function timelineBars(route: PlanRoute): TimelineBar[] {
  const bars: TimelineBar[] = [];
  const breaks: TimelineBar[] = [];
  for (const visit of route.visits) {
    if (visit.kind === 'break') {
      breaks.push(bar('break', visit.start_s, visit.finish_s, ''));
      continue;
    }
    if (visit.arrival_s === null || visit.start_s === null || visit.finish_s === null) continue;
    bars.push(bar('driving', visit.arrival_s - visit.travel_s, visit.arrival_s, visit.stop));
    bars.push(bar('waiting', visit.arrival_s, visit.start_s, visit.stop));
    bars.push(bar('service', visit.start_s, visit.finish_s, visit.stop));
  }
  if (route.end.travel_s > 0) bars.push(bar('driving', route.end.time_s - route.end.travel_s, route.end.time_s, ''));
  return [...bars.filter((entry) => entry.to_s > entry.from_s), ...breaks.filter((entry) => entry.to_s > entry.from_s)];
}

/** The axis every route shares: from the earliest start to the latest end of the plan. */
export function timelineSpan(plan: Plan): { from_s: number; to_s: number } | null {
  if (plan.routes.length === 0) return null;
  return {
    from_s: Math.min(...plan.routes.map((route) => route.start.time_s)),
    to_s: Math.max(...plan.routes.map((route) => route.end.time_s)),
  };
}

function bar(kind: TimelineKind, from_s: number, to_s: number, stop: string): TimelineBar {
  return { kind, from_s, to_s, stop };
}
