/**
 * The driver page's side of working offline: its service worker registered (driver-sw.ts), the
 * page and route it was opened with kept at once (the worker was not there yet to see them), and
 * the note that says the route shown is an older copy.
 */
import { FETCHED_AT_HEADER, FROM_CACHE_HEADER } from './offline-headers.js';
import { tapTime } from './driver-view.js';

export const SERVICE_WORKER_URL = '/drivers/sw.js';

/**
 * Registers the worker (or lets the browser look for a newer one) and, on the first load, asks it to
 * keep this page and its route; `ready` is told once they are kept, so the page can say it will
 * open without network. A browser without service workers (or
 * one that refuses them) keeps working online, with the route copy in localStorage as before.
 */
export function keepPageOffline(ready: () => void): void {
  if (!('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  if (container.controller) {
    // The worker already answered this load: the page and its route went through it and are kept.
    void container.register(SERVICE_WORKER_URL, { scope: '/drivers/' }).catch(() => undefined);
    ready();
    return;
  }
  container.addEventListener('message', (event: MessageEvent<{ type?: string; ok?: boolean }>) => {
    if (event.data?.type === 'page-kept' && event.data.ok === true) ready();
  });
  container
    .register(SERVICE_WORKER_URL, { scope: '/drivers/' })
    .then(() => container.ready)
    .then((registration) => registration.active?.postMessage({ type: 'keep-page', page: location.pathname }))
    .catch(() => undefined);
}

/** "Offline: showing the route as of 09:41." when the answer came from the worker's copy, else null. */
export function offlineNoteOf(headers: Headers): string | null {
  if (headers.get(FROM_CACHE_HEADER) === null) return null;
  const fetched = headers.get(FETCHED_AT_HEADER);
  return fetched ? `Offline: showing the route as of ${tapTime(fetched)}.` : 'Offline: showing the last route this phone saw.';
}
