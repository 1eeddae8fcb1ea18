import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The compiled worker entry (worker.js), or null when there is none. From the compiled tree
 * it is the sibling of this module; from the TypeScript sources (a test runner), whose .ts
 * sibling a worker thread cannot run, it is the built copy in dist/.
 */
export function workerUrl(): URL | null {
  const here = import.meta.url;
  const url = here.endsWith('.ts') ? new URL('../../dist/src/threads/worker.js', here) : new URL('./worker.js', here);
  return existsSync(fileURLToPath(url)) ? url : null;
}
