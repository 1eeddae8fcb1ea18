/**
 * The actions' endings as webhook events: the action store as it is, except that an ending it
 * writes (`written`, never a `lost-race`, so one event per action) is written `ending_untold` and
 * its event recorded before end() answers; the action is then written without the mark. Every
 * ending goes through end() — a solve's, a cancel's, a queue giving up — so this is the one place
 * that sees them all. An event that cannot be recorded then (logged; the ending stands), or whose
 * process ends first, keeps its action marked, and tellUntold records it later: at the next start
 * and at each retention sweep. Its id comes from the action's (events.ts), so it is the same event.
 */
import type { ActionStore, EndOutcome, Ending, StoredAction } from '../../store/ports.js';

type Log = (event: Record<string, unknown>) => void;

export interface ReportingEndings {
  store: ActionStore;
  /** Records the events of the endings left untold; answers how many. */
  tellUntold(): Promise<number>;
}

export function reportingEndings(store: ActionStore, ended: (stored: StoredAction) => Promise<void>, log: Log): ReportingEndings {
  const tell = async (stored: StoredAction): Promise<boolean> => {
    try {
      await ended(stored);
      await store.endingTold(stored.record.actionUuid);
    } catch (error) {
      log({ event: 'webhook_not_recorded', action_id: stored.record.actionUuid, reason: (error as Error).message });
      return false;
    }
    delete stored.ending_untold;
    return true;
  };
  const end = async (stored: StoredAction, ending: Ending): Promise<EndOutcome> => {
    stored.ending_untold = true;
    let outcome: EndOutcome;
    try {
      outcome = await store.end(stored, ending);
    } catch (error) {
      delete stored.ending_untold;
      throw error;
    }
    if (outcome === 'written') await tell(stored);
    else delete stored.ending_untold;
    return outcome;
  };
  const tellUntold = async (): Promise<number> => {
    let told = 0;
    for (const stored of await store.endingsUntold()) if (await tell(stored)) told++;
    return told;
  };
  return { store: withEnd(store, end), tellUntold };
}

/** The store with its end() replaced, every other method its own. */
function withEnd(store: ActionStore, end: ActionStore['end']): ActionStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'end') return end;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
