/** Worker-thread entry: runs one SolveJob off the service's event loop and posts its outcome. */
import { parentPort, workerData } from 'node:worker_threads';
import { runSolveJob, type SolveJob } from './job.js';

if (!parentPort) throw new Error('solve-worker.js must run as a worker thread');
const port = parentPort;
void runSolveJob(workerData as SolveJob).then((outcome) => port.postMessage(outcome));
