/**
 * Worker-thread entry for `routeplan solve`: runs the solver off the main thread so that the
 * spinner keeps moving and Ctrl-C is noticed even while the solver computes without yielding.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RouteplanError } from '../errors.js';
import type { Problem } from '../model/problem.js';
import { solve } from '../solver/index.js';
import type { SolveOptions } from '../solver/types.js';
import type { ThreadMessage, ThreadRequest } from './threaded-solve.js';

if (!parentPort) throw new Error('solve-thread.js must run as a worker thread');
const port = parentPort;
const { problem, options } = workerData as { problem: Problem; options: Omit<SolveOptions, 'signal' | 'onProgress'> };
const controller = new AbortController();

port.on('message', (request: ThreadRequest) => {
  if (request.type === 'abort') controller.abort();
});

const post = (message: ThreadMessage): void => port.postMessage(message);

try {
  const result = await solve(problem, {
    ...options,
    signal: controller.signal,
    onProgress: (progress) => post({ type: 'progress', progress }),
  });
  post({ type: 'result', result });
} catch (error) {
  const stack = error instanceof Error && error.stack !== undefined ? { stack: error.stack } : {};
  if (error instanceof RouteplanError) {
    post({
      type: 'error',
      error: { known: true, code: error.code, message: error.message, exitCode: error.exitCode, details: error.details, ...stack },
    });
  } else {
    const message = error instanceof Error ? error.message : String(error);
    post({ type: 'error', error: { known: false, code: 'internal', message, exitCode: 1, details: [], ...stack } });
  }
}
port.close();
