/**
 * A worker thread started while a large problem loads. A worker takes a quarter of a second or
 * more to start (a fresh V8 isolate loading the solver's bundle), and a solve above
 * INLINE_MAX_STOPS runs on one: started after the loading, that time came out of the command's
 * `--time-limit` (issue 26: a 5,000-stop first plan within 2 s); started before it, the loading
 * on the main thread and the worker's start share the machine's two cores.
 *
 * The stop count is known only once the file is parsed, so the file's size stands for it: a
 * one-off of 1,000 orders is some 190 kB of JSON. A wrong guess costs a worker that is stopped
 * unused (a small file naming large CSV tables simply starts its worker later, as before).
 */
import { stat } from 'node:fs/promises';
import { WorkerThread } from '../threads/thread.js';
import { workerUrl } from '../threads/worker-url.js';

/** Problem files from this size on start their solver's worker before they are read. */
export const EARLY_WORKER_MIN_BYTES = 150_000;

export class EarlyWorker {
  private constructor(private thread: WorkerThread | null) {}

  /** Starts a worker when `file` is large enough to need one (never for stdin). */
  static async forFile(file: string): Promise<EarlyWorker> {
    if (file === '-') return new EarlyWorker(null);
    const size = await stat(file).then(
      (s) => s.size,
      () => 0,
    );
    const url = size >= EARLY_WORKER_MIN_BYTES ? workerUrl() : null;
    return new EarlyWorker(url === null ? null : new WorkerThread(url));
  }

  /** The started worker, handed over to whoever runs the search on it (which then stops it). */
  take(): WorkerThread[] {
    const thread = this.thread;
    this.thread = null;
    return thread === null ? [] : [thread];
  }

  /** Stops the worker if nobody took it: the problem turned out small, or loading it failed. */
  dispose(): void {
    void this.thread?.terminate();
    this.thread = null;
  }
}
