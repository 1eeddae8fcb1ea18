/**
 * Worker-thread entry: runs SolveJobs off the service's event loop, one at a time, posting each
 * outcome back. The worker stays alive between jobs so the modules load once per worker.
 */
import { parentPort } from 'node:worker_threads';
import { runSolveJob, type SolveJob } from './job.js';

if (!parentPort) throw new Error('solve-worker.js must run as a worker thread');
const port = parentPort;
port.on('message', (job: SolveJob) => {
  void runSolveJob(job).then((outcome) => port.postMessage(outcome));
});
