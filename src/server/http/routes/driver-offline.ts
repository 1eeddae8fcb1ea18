/**
 * The driver page's service worker (decisions.md, "The live day": the page reloads without network
 * after one load), served at /drivers/sw.js so that its scope is /drivers/: the driver pages and
 * nothing else. Built by tools/build-web.ts into dist/web/assets/driver-sw.js, with a version of
 * the page's files in it, so a new build is a new worker that drops the old caches.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../replies.js';
import { addPath } from './table.js';

export const SERVICE_WORKER_PATH = '/drivers/sw.js';

export function registerDriverOffline(app: FastifyInstance, ctx: AppContext): void {
  addPath(app, SERVICE_WORKER_PATH, {
    GET: async (_request, reply) => {
      const script = await readFile(join(ctx.web.root, 'assets', 'driver-sw.js'), 'utf8').catch(() => null);
      if (script === null) throw new HttpError(404, 'not_found', 'the web application is not built: run npm run build');
      void reply
        .code(200)
        .headers({
          'content-type': 'text/javascript; charset=utf-8',
          // The browser checks for a new worker at each page load; no copy of it may stand in the way.
          'cache-control': 'no-cache',
          'service-worker-allowed': '/drivers/',
          'x-content-type-options': 'nosniff',
        })
        .send(script);
    },
  });
}
