/**
 * The driver page's service worker (decisions.md, "The live day": after one load the page reloads
 * without network, with the last known route). Served at /drivers/sw.js, so it sees the driver
 * pages only. The network comes first, always: online, the driver sees what the service has now;
 * the cache answers only when the network does not (no signal, or no answer in time), and a route
 * answered from it says when it was fetched. Reports (POST) and proof files are never touched.
 *
 * The cache's name carries the build's version (tools/build-web.ts): a new build is a new worker,
 * which deletes the older caches when it takes over, so no old page outlives an update.
 */
import { FETCHED_AT_HEADER, FROM_CACHE_HEADER } from './offline-headers.js';

/** Set by tools/build-web.ts: a hash of the driver page's files. */
declare const __DRIVER_SW_VERSION__: string;
/** Set by tools/build-web.ts: every file the driver page loads (its script's chunks, the small map's, the styles). */
declare const __DRIVER_ASSETS__: string[];

interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}

interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}

interface MessageEventWithSource extends ExtendableEvent {
  data: unknown;
  source: { postMessage(message: unknown): void } | null;
}

interface WorkerScope {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventWithSource) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
}

const worker = globalThis as unknown as WorkerScope;
const PREFIX = 'routeplan-driver-';
const CACHE = `${PREFIX}${__DRIVER_SW_VERSION__}`;
/** What every driver page loads besides its own HTML and route. */
const ASSETS = __DRIVER_ASSETS__;
/** A phone in a dead zone may wait long for nothing: past this, the cached copy answers. */
const NETWORK_WAIT_MS = 6_000;

const DRIVER_PAGE = /^\/drivers\/[A-Za-z0-9_-]{1,128}$/;
const DRIVER_ROUTE = /^\/drivers\/[A-Za-z0-9_-]{1,128}\/route$/;

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(ASSETS))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== worker.location.origin) return;
  if (DRIVER_PAGE.test(url.pathname) || DRIVER_ROUTE.test(url.pathname) || ASSETS.includes(url.pathname)) {
    event.respondWith(networkFirst(request));
  }
});

/** The page that was loaded before this worker took over asks for its page and route to be kept; answered when done. */
worker.addEventListener('message', (event) => {
  const data = event.data as { type?: string; page?: string } | null;
  const page = data?.type === 'keep-page' && typeof data.page === 'string' && DRIVER_PAGE.test(data.page) ? data.page : null;
  if (page === null) return;
  event.waitUntil(
    Promise.all([page, `${page}/route`].map((path) => networkFirst(new Request(path)).catch(() => null))).then((answers) =>
      event.source?.postMessage({ type: 'page-kept', page, ok: answers.every((answer) => answer?.ok === true) }),
    ),
  );
});

/** The network's answer, kept when it is a good one; the kept copy when the network fails or is too slow. */
async function networkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    // The request as it came (a navigation's may not be re-made with options); the service says no-store itself.
    const response = await withTimeout(fetch(request), NETWORK_WAIT_MS);
    if (response.ok) await cache.put(request, stamped(response.clone()));
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreVary: true });
    if (!kept) throw error;
    const headers = new Headers(kept.headers);
    headers.set(FROM_CACHE_HEADER, '1');
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
  }
}

/** The copy to keep, with the time it was fetched. */
function stamped(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set(FETCHED_AT_HEADER, new Date().toISOString());
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer from the network in time')), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
