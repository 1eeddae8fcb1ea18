/**
 * `--time-limit` bounds the whole command — loading, travel matrix, solving and output — not the
 * search alone (decisions.md, `--seed`/`--time-limit`): the limit counts from the process's start
 * (performance.timeOrigin), and the solver must hand its plan back early enough for the plan to be
 * built and written before it runs out.
 */

/**
 * Time kept for building and writing the plan after the solve: a base plus a share per stop,
 * from buildPlan and the JSON written on a 5,000-stop one-off (some 0.13 s and 0.07 s in a
 * profile on this 2-core machine, busy): 0.04 ms a stop leaves room for that on a loaded machine.
 */
export const OUTPUT_RESERVE_BASE_MS = 10;
export const OUTPUT_RESERVE_PER_STOP_MS = 0.04;

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
