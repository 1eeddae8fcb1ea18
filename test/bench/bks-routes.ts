/**
 * `node dist/test/bench/bks-routes.js <solution.sol> <plan.json>`: how far a plan is from the
 * best-known solution in its routes, not only its distance — typically a fresh
 * `bin/routeplan solve RC101.txt --format solomon --json > plan.json` beside
 * `../shared/benchmarks/solomon/bks-solutions/RC101.sol`. Prints the routes each uses, how many of
 * the plan's routes the best-known solution has stop for stop, and the stops of the other routes:
 * a plan one route off the best-known count that shares few routes sits in another basin (a
 * route-count problem), one that shares most differs in a few routes (the search's reach there).
 * Exit 2 on a usage error.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Plan } from '../../src/output/plan-types.js';
import { parseSolutionFile } from './benchmark-data.js';

export interface SharedRoutes {
  /** Routes the plan uses, and the best-known solution. */
  ours: number;
  bks: number;
  /** The plan's routes that the best-known solution has, the same stops in the same order. */
  shared: number;
  /** The stops of the plan's other routes, ascending. */
  elsewhere: number[];
}

/** Compares the plan's routes (`ours`) with the best-known solution's (`bks`), both as customer numbers in visiting order. */
export function sharedRoutes(ours: readonly (readonly number[])[], bks: readonly (readonly number[])[]): SharedRoutes {
  const known = new Set(bks.map((route) => route.join(' ')));
  const used = ours.filter((route) => route.length > 0);
  const differing = used.filter((route) => !known.has(route.join(' ')));
  const elsewhere = differing.flat().sort((a, b) => a - b);
  return { ours: used.length, bks: bks.length, shared: used.length - differing.length, elsewhere };
}

/** The plan's routes as customer numbers (a benchmark's stop ids are its customer numbers). */
export function planRoutes(plan: Plan): number[][] {
  return plan.routes.map((route) => route.visits.flatMap((visit) => (visit.kind === 'stop' ? [Number(visit.stop)] : [])));
}

function main(argv: string[]): number {
  const [solutionPath, planPath] = argv;
  if (solutionPath === undefined || planPath === undefined) {
    console.error('usage: node dist/test/bench/bks-routes.js <solution.sol> <plan.json>');
    return 2;
  }
  const bks = parseSolutionFile(readFileSync(solutionPath, 'utf8'));
  const plan = JSON.parse(readFileSync(planPath, 'utf8')) as Plan;
  const result = sharedRoutes(planRoutes(plan), bks.routes);
  console.log(`distance ${plan.summary.distance_m} against ${bks.cost}; routes ${result.ours} against ${result.bks}`);
  console.log(`routes the best-known solution has: ${result.shared} of ${result.ours}`);
  console.log(`stops in the other ${result.ours - result.shared}: ${result.elsewhere.join(' ')}`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = main(process.argv.slice(2));
