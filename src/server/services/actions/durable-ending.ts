/**
 * A run's ending is written until it is written. An action's outcome, once any poll has seen it,
 * never changes: so no poll may see an ending before the store holds it (a restart would run the
 * action again and could end it otherwise), and an ending the store refused (a full disk, a
 * database out of reach) is tried again, with growing waits and no time after which it gives up,
 * until it is written, another ending came first, or the run is stopped (a shutdown, or its
 * claim passed to another process) — the action is then still pending everywhere, no poll has
 * seen an ending, and it runs again. Meanwhile polls see it running, with its last progress.
 */
import { StoreUnavailableError } from '../../store/errors.js';
import type { ActionStore, EndOutcome, Ending, StoredAction } from '../../store/ports.js';

type Log = (event: Record<string, unknown>) => void;

/** The first wait after a refused ending, doubled after each refusal up to the longest. */
export const ENDING_RETRY = { firstMs: 250, longestMs: 5_000 };

/** A store that keeps refusing is logged when it starts, then once a minute: a full disk must not fill the log too. */
const RELOG_AFTER_MS = 60_000;

/** `stopped`: the run was stopped while its ending waited for the store; the action is still pending. */
export type DurableEndOutcome = EndOutcome | 'stopped';

export async function endUntilWritten(
  store: ActionStore,
  stored: StoredAction,
  ending: Ending,
  signal: AbortSignal,
  log: Log,
): Promise<DurableEndOutcome> {
  const id = stored.record.actionUuid;
  const since = Date.now();
  let refusals = 0;
  let loggedAt = -Infinity;
  let waitMs = ENDING_RETRY.firstMs;
  for (;;) {
    try {
      const outcome = await store.end(stored, ending);
      if (refusals > 0) log({ event: 'ending_saved', action_id: id, refusals, waited_ms: Date.now() - since });
      return outcome;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      refusals += 1;
      if (Date.now() - loggedAt >= RELOG_AFTER_MS) {
        loggedAt = Date.now();
        log({ event: 'ending_not_saved', action_id: id, status: ending.status, refusals, reason: error.message, retry: 'until saved' });
      }
    }
    if (!(await waitUnlessStopped(waitMs, signal))) return 'stopped';
    waitMs = Math.min(waitMs * 2, ENDING_RETRY.longestMs);
  }
}

/** False when the signal stopped the wait (or had already). */
function waitUnlessStopped(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
