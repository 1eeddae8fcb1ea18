/**
 * Several listeners told of the dispatch's changes as one: each in turn, each one told even when
 * another fails; the first failure is then answered, so that the event is told again (notices.ts).
 */
import type { DispatchListener } from './events.js';

type Log = (event: Record<string, unknown>) => void;

export function allListeners(listeners: DispatchListener[], log: Log): DispatchListener {
  const tellEach = async (tell: (listener: DispatchListener) => void | Promise<void>): Promise<void> => {
    let failure: Error | null = null;
    for (const listener of listeners) {
      try {
        await tell(listener);
      } catch (error) {
        log({ event: 'dispatch_listener_failed', message: (error as Error).message });
        failure ??= error instanceof Error ? error : new Error(String(error), { cause: error });
      }
    }
    if (failure !== null) throw failure;
  };
  return {
    dispatched: (event) => tellEach((listener) => listener.dispatched(event)),
    stopDone: (event) => tellEach((listener) => listener.stopDone(event)),
    stopReported: (event) => tellEach((listener) => listener.stopReported?.(event)),
    etaChanged: (event) => tellEach((listener) => listener.etaChanged(event)),
    promiseRevised: (event) => tellEach((listener) => listener.promiseRevised?.(event)),
  };
}
