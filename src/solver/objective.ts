/**
 * The lexicographic objective of decisions.md, compared as a tuple:
 * (1) total priority served (higher is better), (2) permitted violations — lateness +
 * overtime + overload (lower), (3) routes used when `minimizeRoutes` (lower), (4) cost:
 * working time or distance plus a balancing spread penalty (lower).
 */
export interface ObjectiveValue {
  priority: number;
  violations: number;
  routes: number;
  cost: number;
}

/** Tolerance for float sums of costs and violations so that round-off never decides. */
const EPS = 1e-6;

/** Negative when `a` is better than `b`, positive when worse, 0 when equal. */
export function compareObjective(a: ObjectiveValue, b: ObjectiveValue, minimizeRoutes: boolean): number {
  if (Math.abs(a.priority - b.priority) > EPS) return b.priority - a.priority;
  if (Math.abs(a.violations - b.violations) > EPS) return a.violations - b.violations;
  if (minimizeRoutes && a.routes !== b.routes) return a.routes - b.routes;
  if (Math.abs(a.cost - b.cost) > EPS * Math.max(1, Math.abs(b.cost))) return a.cost - b.cost;
  return 0;
}

/** Levels 1–3 only: negative when `a` is better. */
export function compareUpperLevels(a: ObjectiveValue, b: ObjectiveValue, minimizeRoutes: boolean): number {
  if (Math.abs(a.priority - b.priority) > EPS) return b.priority - a.priority;
  if (Math.abs(a.violations - b.violations) > EPS) return a.violations - b.violations;
  if (minimizeRoutes && a.routes !== b.routes) return a.routes - b.routes;
  return 0;
}

export function copyObjective(value: ObjectiveValue): ObjectiveValue {
  return { priority: value.priority, violations: value.violations, routes: value.routes, cost: value.cost };
}
