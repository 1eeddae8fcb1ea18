/**
 * One worker thread running worker.ts, seen as a task runner: `run` posts a task and settles with
 * its result, the worker's error (rebuilt by errors.ts) or a WorkerFailure when the thread dies.
 */
import { Worker } from 'node:worker_threads';
import type { SolveProgress } from '../solver/types.js';
import { deserializeError } from './errors.js';
import type { FromWorker, Task, ToWorker } from './protocol.js';

/** The thread itself failed (crashed, exited, overran): `code` is `internal_error` or `solve_timeout`. */
export class WorkerFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'WorkerFailure';
  }
}

export class WorkerThread {
  private readonly worker: Worker;
  private stop: ((error: Error) => void) | null = null;
  /** Settles once the thread has really ended (terminated, crashed or exited). */
  readonly exited: Promise<void>;

  constructor(url: URL) {
    this.worker = new Worker(url);
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('error', (error) =>
      this.stop?.(new WorkerFailure('internal_error', `the worker thread crashed: ${error.message}`, { cause: error })),
    );
    this.worker.on('exit', (code) =>
      this.stop?.(new WorkerFailure('internal_error', `the worker thread exited (code ${code}) without a result`)),
    );
  }

  /** Runs one task; `transfer` moves buffers to the worker instead of copying them. */
  run<T>(task: Task, onProgress?: (progress: SolveProgress) => void, transfer: ArrayBuffer[] = []): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const settle = (outcome: () => void): void => {
        this.worker.off('message', onMessage);
        this.stop = null;
        outcome();
      };
      const onMessage = (message: FromWorker): void => {
        if (message.type === 'progress') onProgress?.(message.progress);
        else if (message.type === 'result') settle(() => resolve(message.value as T));
        else settle(() => reject(deserializeError(message.error)));
      };
      this.stop = (error) => settle(() => reject(error));
      this.worker.on('message', onMessage);
      this.post({ type: 'run', task }, transfer);
    });
  }

  /** Asks the running task to stop early and answer what it has (a search: its best plan so far). */
  abort(): void {
    this.post({ type: 'abort' });
  }

  /** Ends the thread; a task still running rejects with `failure`. */
  async terminate(failure: Error = new WorkerFailure('internal_error', 'the worker thread was stopped')): Promise<void> {
    this.stop?.(failure);
    await this.worker.terminate();
  }

  /** Whether the thread alone may keep the process alive (an idle pooled thread must not). */
  keepAlive(on: boolean): void {
    if (on) this.worker.ref();
    else this.worker.unref();
  }

  private post(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(message, transfer);
  }
}
