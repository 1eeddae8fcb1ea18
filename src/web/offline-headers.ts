/** What the driver page's service worker (driver-sw.ts) adds to the answers it keeps, for the page (driver-offline.ts). */

/** When a kept answer was fetched from the service (ISO 8601). */
export const FETCHED_AT_HEADER = 'x-routeplan-fetched-at';
/** Present on an answer the worker gave from its cache because the network did not answer. */
export const FROM_CACHE_HEADER = 'x-routeplan-from-cache';
