/**
 * The web application's files (built into dist/web/ by the front end's build) and the headers every
 * page carries. Pages are plain files; whatever they show they fetch from the JSON API.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TilesView } from '../api-types.js';

/**
 * The map's basemap (decisions.md, "The live day"): raster tiles from a URL template (OpenStreetMap's
 * by default), or a local PMTiles extract the service serves itself at PMTILES_PATH.
 */
export type TileSource =
  | {
      kind: 'raster';
      /** A Leaflet-style template, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png */
      url: string;
      attribution: string;
    }
  | {
      kind: 'pmtiles';
      /** The .pmtiles file on disk, checked at start (server/http/pmtiles.ts). */
      file: string;
      attribution: string;
      /** The extract's deepest zoom (its header's): the page draws deeper views from it. */
      maxZoom: number;
    };

/** Where the page fetches a PMTiles extract from (with Range requests). */
export const PMTILES_PATH = '/tiles/basemap.pmtiles';

const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** OpenStreetMap's standard tiles, the default basemap; their usage policy asks for this attribution. */
export const OSM_TILES = { kind: 'raster', url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: OSM_ATTRIBUTION } as const;

/** A Protomaps extract is OpenStreetMap data: the same attribution unless the operator gives another. */
export const PMTILES_ATTRIBUTION = OSM_ATTRIBUTION;

export type PageName = 'index' | 'project' | 'print' | 'driver' | 'track';

/**
 * dist/web/ as built, found from the `src` folder this module sits under, however deep: from the
 * TypeScript sources (a test runner, src/) it is the built copy in dist/; from the compiled tree
 * (dist/src/server/http/) and from the CLI's bundle (dist/src/bundle/) it is the `web` beside src.
 */
export function defaultWebRoot(): string {
  const here = fileURLToPath(import.meta.url);
  const root = here.slice(0, here.lastIndexOf(`${sep}src${sep}`));
  // With the trailing separator, as the URL it was before.
  return `${here.endsWith('.ts') ? join(root, 'dist', 'web') : join(root, 'web')}${sep}`;
}

export function isWebBuilt(webRoot: string): boolean {
  return existsSync(join(webRoot, 'index.html'));
}

/** The page's HTML, or null when the web application is not built there. */
export async function readPage(webRoot: string, page: PageName): Promise<string | null> {
  try {
    return await readFile(join(webRoot, `${page}.html`), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The origin the map's tiles come from, as a CSP source. A `{s}` subdomain placeholder becomes the
 * CSP wildcard; anything that is not an http(s) URL gives null (and no extra source).
 */
export function tilesOrigin(template: string): string | null {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(template);
  if (!match) return null;
  const host = match[2]!.replace(/\{s\}/g, '*');
  return /^[A-Za-z0-9.*:[\]-]+$/.test(host) ? `${match[1]!.toLowerCase()}://${host.toLowerCase()}` : null;
}

/** The basemap as the pages are told it: a PMTiles file by our URL for it, never its place on disk. */
export function tilesView(tiles: TileSource | null): TilesView | null {
  if (tiles === null) return null;
  if (tiles.kind === 'raster') return { kind: 'raster', url: tiles.url, attribution: tiles.attribution };
  return { kind: 'pmtiles', url: PMTILES_PATH, attribution: tiles.attribution, maxZoom: tiles.maxZoom };
}

/** The headers of every HTML page: no inline script, no framing, our own origin for everything else. */
export function pageHeaders(tiles: TileSource | null): Record<string, string> {
  // A PMTiles extract comes from our own origin (connect-src 'self'); raster tiles are images from theirs.
  const tileSource = tiles?.kind === 'raster' ? tilesOrigin(tiles.url) : null;
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tileSource ? ` ${tileSource}` : ''}`,
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cache-control': 'no-cache',
  };
}

/** What a browser sees when the service runs without the built web application. */
export const NOT_BUILT_PAGE =
  '<!doctype html><meta charset="utf-8"><title>routeplan</title>' +
  '<h1>The web application is not built</h1><p>Run <code>npm run build</code> and restart <code>routeplan serve</code>. ' +
  'The JSON API works without it.</p>';
