/**
 * What changed between two plans of one project (decisions.md, "Editing a project and re-planning
 * the day"): stops that changed driver, stops added and removed, and the change in working time
 * and distance. One function for every kind of plan (optimized, edited, re-optimized), called once
 * when a plan is recorded so that what a plan says it changed never moves afterwards.
 *
 * Stops and drivers are matched by name: a plan names them and does not carry the project's ids,
 * and the project may have gained or lost stops in between (so a stop's index is no match). Two
 * stops of one name are told apart by their order in the project.
 */
import type { Plan, PlanChanges, PlanFigureChange, PlanStopChange } from './plan-types.js';

/** The changes of `next` against `previous`, the plan recorded before it as `previousId`. */
export function planChanges(previousId: string, previous: Plan, next: Plan): PlanChanges {
  const before = driversByStop(previous);
  const after = driversByStop(next);
  const changes: PlanChanges = {
    against: previousId,
    driver_changed: [],
    added: [],
    removed: [],
    working_s: figureChange(previous.summary.working_s, next.summary.working_s),
    distance_m: figureChange(previous.summary.distance_m, next.summary.distance_m),
  };
  for (const [key, { stop, driver }] of after) {
    const was = before.get(key);
    if (!was) changes.added.push({ stop, driver });
    else if (was.driver !== driver) changes.driver_changed.push({ stop, from: was.driver, to: driver });
  }
  for (const [key, { stop, driver }] of before) if (!after.has(key)) changes.removed.push({ stop, driver });
  return changes;
}

/**
 * Each served stop's driver, keyed by its name and the how-many-th stop of that name it is
 * (counted over served and unserved stops in the project's order, by `stop_index`), so that two
 * stops named alike stay two.
 */
function driversByStop(plan: Plan): Map<string, PlanStopChange> {
  const stops: { stop: string; driver: string | null; index: number }[] = plan.unserved.map((entry) => ({
    stop: entry.stop,
    driver: null,
    index: entry.stop_index,
  }));
  for (const route of plan.routes) {
    for (const visit of route.visits) {
      if (visit.kind === 'stop') stops.push({ stop: visit.stop, driver: route.vehicle, index: visit.stop_index });
    }
  }
  stops.sort((a, b) => a.index - b.index);
  const seen = new Map<string, number>();
  const byKey = new Map<string, PlanStopChange>();
  for (const { stop, driver } of stops) {
    const nth = seen.get(stop) ?? 0;
    seen.set(stop, nth + 1);
    if (driver !== null) byKey.set(`${nth}\u0000${stop}`, { stop, driver });
  }
  return byKey;
}

function figureChange(before: number, after: number): PlanFigureChange {
  // Rounded as the plans' own figures are: seconds and metres are whole, a difference is too.
  return { before, after, delta: Math.round((after - before) * 1000) / 1000 };
}
