/**
 * The maps' streets under the routes (decisions.md, "The live day"): raster tiles from the
 * operator's template (OpenStreetMap's by default), or a local PMTiles extract whose vector tiles
 * are drawn in the page by protomaps-leaflet; none at all gives the plain offline background.
 * Leaflet asks only for the tiles the view needs (no prefetching, as OSM's tile usage policy asks).
 */
import L from 'leaflet';
import { leafletLayer } from 'protomaps-leaflet';
import type { Session } from './types.js';

/** Pages send no Referer by default (referrer-policy same-origin); tile servers ask for one, and get the origin alone. */
const TILE_REFERRER = 'strict-origin-when-cross-origin';

/** Adds the session's basemap to `map`; without one, marks `element` for the plain background. Returns the kind drawn. */
export function addBasemap(map: L.Map, element: HTMLElement, tiles: Session['tiles']): 'raster' | 'pmtiles' | 'none' {
  element.dataset.basemap = tiles?.kind ?? 'none';
  if (tiles === null) {
    element.classList.add('map-offline');
    return 'none';
  }
  if (tiles.kind === 'raster') {
    L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19, referrerPolicy: TILE_REFERRER }).addTo(map);
  } else {
    // Deeper views are drawn from the extract's deepest tiles, scaled (maxDataZoom). The package
    // types its layer loosely; it is a Leaflet GridLayer drawing each tile on a canvas.
    const layer = leafletLayer({
      url: tiles.url,
      flavor: 'light',
      lang: 'en',
      attribution: tiles.attribution,
      maxDataZoom: Math.max(1, tiles.maxZoom),
      maxZoom: 19,
    }) as unknown as L.GridLayer;
    layer.addTo(map);
  }
  return tiles.kind;
}
