/**
 * `--time-limit` bounds the whole command — loading, travel matrix, solving and output — not the
 * search alone (decisions.md, `--seed`/`--time-limit`): the limit counts from the process's start
 * (performance.timeOrigin), and the solver must hand its plan back early enough for the plan to be
 * built and written before it runs out.
 */

/**
 * Time kept for handing the plan back from the solver's thread, building and writing it: a base
 * plus a share per stop. On a 5,000-stop one-off buildPlan and the JSON took some 0.13 s and
 * 0.07 s in a profile on this 2-core machine, but from the solver's end to the process's exit
 * took 0.9 s of wall time with the machine at a load of 11: 0.1 ms a stop keeps 0.5 s for it.
 */
export const OUTPUT_RESERVE_BASE_MS = 10;
export const OUTPUT_RESERVE_PER_STOP_MS = 0.1;

export interface CommandBudget {
  /** The limit, in milliseconds (Infinity: none). */
  limitMs: number;
  /** When the solve began, in milliseconds since the command's start. */
  solveStartMs: number;
  /** Time kept back for the output. */
  outputReserveMs: number;
  /** When the solver must be done, as SolveOptions.endsAt reads it (absent without a limit). */
  endsAt: number | undefined;
}

/** The budget of a solve of `stops` stops starting now under the command's `limitMs`. */
export function commandBudget(limitMs: number, stops: number): CommandBudget {
  const outputReserveMs = OUTPUT_RESERVE_BASE_MS + OUTPUT_RESERVE_PER_STOP_MS * stops;
  const bounded = Number.isFinite(limitMs) && limitMs > 0;
  return {
    limitMs: bounded ? limitMs : Infinity,
    solveStartMs: performance.now(),
    outputReserveMs,
    endsAt: bounded ? performance.timeOrigin + limitMs - outputReserveMs : undefined,
  };
}
