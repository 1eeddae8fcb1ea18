/** Worker-thread entry of one search for parallel.ts: solves with its seed until the shared deadline. */
import { parentPort, workerData } from 'node:worker_threads';
import { solveOnce } from './index.js';
import { absoluteNow, type WorkerMessage, type WorkerRequest } from './parallel.js';

if (!parentPort) throw new Error('search-worker.js must run as a worker thread');
const port = parentPort;
const request = workerData as WorkerRequest;
const controller = new AbortController();
port.on('message', (message: { type: string }) => {
  if (message.type === 'abort') controller.abort();
});
const post = (message: WorkerMessage): void => port.postMessage(message);

try {
  const left = request.deadline === Infinity ? Infinity : Math.max(1, request.deadline - absoluteNow());
  const { result, objective } = await solveOnce(request.problem, {
    ...request.options,
    timeLimitMs: left,
    signal: controller.signal,
    onProgress: (progress) => post({ type: 'progress', progress }),
  });
  post({ type: 'result', result, objective });
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  post({ type: 'error', message, ...(error instanceof Error && error.stack !== undefined ? { stack: error.stack } : {}) });
}
port.close();
