/**
 * The one worker-thread entry: runs the tasks it is sent (tasks.ts), one at a time, posting
 * progress and then a result or an error. It stays alive between tasks so that a pool can reuse it.
 */
import { parentPort } from 'node:worker_threads';
import { serializeError } from './errors.js';
import type { FromWorker, ToWorker } from './protocol.js';
import { runTask } from './tasks.js';

if (!parentPort) throw new Error('threads/worker.js must run as a worker thread');
const port = parentPort;
const post = (message: FromWorker): void => port.postMessage(message);
let running: AbortController | null = null;

port.on('message', (message: ToWorker) => {
  if (message.type === 'abort') {
    running?.abort();
    return;
  }
  const controller = new AbortController();
  running = controller;
  void runTask(message.task, controller.signal, (progress) => post({ type: 'progress', progress }))
    .then(
      (value) => post({ type: 'result', value }),
      (error: unknown) => post({ type: 'error', error: serializeError(error) }),
    )
    .finally(() => {
      if (running === controller) running = null;
    });
});
