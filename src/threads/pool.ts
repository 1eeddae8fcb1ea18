/**
 * A bounded pool of worker threads, one task at a time per thread; further calls wait in FIFO
 * order. Threads are kept between calls (loading the modules costs a few hundred ms, more than a
 * short solve); one that crashes, overruns its deadline or is aborted is terminated and replaced
 * on demand.
 */
import type { SolveProgress } from '../solver/types.js';
import { WorkerFailure, WorkerThread } from './thread.js';
import type { Task } from './protocol.js';

export class JobAbortedError extends Error {
  constructor() {
    super('the solve was stopped (a shutdown or a cancel)');
    this.name = 'JobAbortedError';
  }
}

interface Call {
  task: Task;
  timeoutMs: number;
  signal: AbortSignal;
  onProgress: ((progress: SolveProgress) => void) | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class WorkerPool {
  private readonly idle: WorkerThread[] = [];
  private readonly waiting: Call[] = [];
  private busy = 0;
  private alive = 0;

  constructor(
    private readonly workerUrl: URL,
    /** Threads running at once. */
    private readonly size: number,
  ) {}

  /**
   * Runs `task`, passing on its progress reports; rejects with JobAbortedError when `signal` aborts
   * (its thread is terminated), WorkerFailure when the thread fails or overruns.
   */
  run<T>(task: Task, timeoutMs: number, signal: AbortSignal, onProgress?: (progress: SolveProgress) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) {
        reject(new JobAbortedError());
        return;
      }
      this.waiting.push({ task, timeoutMs, signal, onProgress, resolve: resolve as (value: unknown) => void, reject });
      this.pump();
    });
  }

  /** Threads started and not yet exited, busy or idle: a stopped task's thread is gone, not parked. */
  get threads(): number {
    return this.alive;
  }

  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((thread) => thread.terminate()));
  }

  private pump(): void {
    while (this.busy < this.size && this.waiting.length > 0) {
      const call = this.waiting.shift()!;
      if (call.signal.aborted) {
        call.reject(new JobAbortedError());
        continue;
      }
      this.busy += 1;
      void this.dispatch(call).finally(() => {
        this.busy -= 1;
        this.pump();
      });
    }
  }

  private async dispatch(call: Call): Promise<void> {
    const thread = this.idle.pop() ?? this.startThread();
    thread.keepAlive(true);
    const onAbort = (): void => void thread.terminate(new JobAbortedError());
    const deadline = setTimeout(() => {
      const seconds = Math.round(call.timeoutMs / 1000);
      void thread.terminate(new WorkerFailure('solve_timeout', `the worker did not answer within ${seconds} s`));
    }, call.timeoutMs);
    call.signal.addEventListener('abort', onAbort, { once: true });
    try {
      call.resolve(await thread.run(call.task, call.onProgress));
      this.release(thread);
    } catch (error) {
      // The task's own error leaves a healthy thread; a failed or stopped one is not reused.
      if (error instanceof WorkerFailure || error instanceof JobAbortedError) void thread.terminate();
      else this.release(thread);
      call.reject(error);
    } finally {
      clearTimeout(deadline);
      call.signal.removeEventListener('abort', onAbort);
    }
  }

  private startThread(): WorkerThread {
    const thread = new WorkerThread(this.workerUrl);
    this.alive += 1;
    void thread.exited.then(() => (this.alive -= 1));
    return thread;
  }

  private release(thread: WorkerThread): void {
    // An idle thread must not keep the process alive on its own.
    thread.keepAlive(false);
    this.idle.push(thread);
  }
}
