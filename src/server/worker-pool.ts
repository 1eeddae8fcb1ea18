/**
 * A pool of worker threads running solve-worker.js, one message at a time per worker. Workers are
 * kept between calls (loading the modules costs a few hundred ms, more than a short solve); one
 * that crashes, overruns its deadline or is interrupted is terminated and replaced on demand.
 */
import { Worker } from 'node:worker_threads';
import { QueueFullError } from './queue.js';

export class JobAbortedError extends Error {
  constructor() {
    super('the solve was interrupted by a shutdown');
    this.name = 'JobAbortedError';
  }
}

/** The worker died or overran: `code` is `internal_error` or `solve_timeout`. */
export class WorkerFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WorkerFailure';
  }
}

interface Call {
  message: unknown;
  timeoutMs: number;
  signal: AbortSignal;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: Call[] = [];
  private busy = 0;

  constructor(
    private readonly workerUrl: URL,
    /** Workers running at once; further calls wait in FIFO order. */
    private readonly size: number,
    /** Calls that may wait; more are refused with QueueFullError. */
    private readonly maxWaiting: number,
  ) {}

  call<T>(message: unknown, timeoutMs: number, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) {
        reject(new JobAbortedError());
        return;
      }
      if (this.busy >= this.size && this.waiting.length >= this.maxWaiting) {
        reject(new QueueFullError(1));
        return;
      }
      this.waiting.push({ message, timeoutMs, signal, resolve: resolve as (value: unknown) => void, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }

  private pump(): void {
    while (this.busy < this.size && this.waiting.length > 0) {
      const call = this.waiting.shift()!;
      if (call.signal.aborted) {
        call.reject(new JobAbortedError());
        continue;
      }
      this.busy += 1;
      this.dispatch(call);
    }
  }

  private dispatch(call: Call): void {
    const worker = this.idle.pop() ?? new Worker(this.workerUrl);
    worker.ref();
    let settled = false;
    const finish = (keepWorker: boolean, settle: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      call.signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (keepWorker) {
        // An idle worker must not keep the process alive on its own.
        worker.unref();
        this.idle.push(worker);
      } else {
        void worker.terminate();
      }
      this.busy -= 1;
      settle();
      this.pump();
    };
    const onAbort = (): void => finish(false, () => call.reject(new JobAbortedError()));
    const onMessage = (reply: unknown): void => finish(true, () => call.resolve(reply));
    const onError = (error: Error): void =>
      finish(false, () => call.reject(new WorkerFailure('internal_error', `the solve worker crashed: ${error.message}`)));
    const onExit = (code: number): void =>
      finish(false, () => call.reject(new WorkerFailure('internal_error', `the solve worker exited with code ${code}`)));
    const deadline = setTimeout(
      () =>
        finish(false, () =>
          call.reject(new WorkerFailure('solve_timeout', `the worker did not answer within ${Math.round(call.timeoutMs / 1000)} s`)),
        ),
      call.timeoutMs,
    );
    call.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(call.message);
  }
}
