/**
 * The actions' endings as webhook events: the action store as it is, except that an ending it
 * writes (`written`, never a `lost-race`, so one event per action) is recorded as an event before
 * end() answers. Every ending goes through end() — a solve's, a cancel's, a queue giving up — so
 * this is the one place that sees them all. A failure to record is logged: the ending stands.
 */
import type { ActionStore, EndOutcome, Ending, StoredAction } from '../../store/ports.js';

export function reportingEndings(
  store: ActionStore,
  ended: (stored: StoredAction) => Promise<void>,
  log: (event: Record<string, unknown>) => void,
): ActionStore {
  const end = async (stored: StoredAction, ending: Ending): Promise<EndOutcome> => {
    const outcome = await store.end(stored, ending);
    if (outcome === 'written') {
      await ended(stored).catch((error: unknown) => {
        log({ event: 'webhook_not_recorded', action_id: stored.record.actionUuid, reason: (error as Error).message });
      });
    }
    return outcome;
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'end') return end;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
