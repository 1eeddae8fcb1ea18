/** A benchmark result row for the report tests: one instance, every field plausible, `extra` on top. */
import { familyOf } from '../bench/benchmark-data.js';
import type { InstanceResult } from '../bench/report.js';

export function instanceResult(instance: string, gapPct: number | null, extra: Partial<InstanceResult> = {}): InstanceResult {
  return {
    instance,
    family: familyOf(instance),
    customers: 100,
    cost: 1,
    bks: 1,
    gapPct,
    routes: 10,
    bksRoutes: 10,
    timeSec: 1,
    feasible: true,
    unserved: 0,
    problems: [],
    missedInserts: [],
    error: null,
    ...extra,
  };
}
