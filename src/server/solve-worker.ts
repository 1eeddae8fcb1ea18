/**
 * Worker-thread entry: validates documents and runs SolveJobs off the service's event loop, one
 * message at a time, posting each outcome back. Building a large problem (its travel matrix) takes
 * seconds, so even request validation happens here.
 */
import { parentPort } from 'node:worker_threads';
import { runSolveJob, runValidation, type WorkerRequest } from './job.js';

if (!parentPort) throw new Error('solve-worker.js must run as a worker thread');
const port = parentPort;
port.on('message', (request: WorkerRequest) => {
  if (request.type === 'validate') {
    port.postMessage(runValidation(request));
    return;
  }
  void runSolveJob(request.job).then((outcome) => port.postMessage(outcome));
});
