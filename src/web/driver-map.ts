/**
 * The driver page's small map of the day (decisions.md, "The live day"): the depot, each stop by
 * its number in the route (✓ once done, ✗ once failed, as on the project page) and the way between
 * them, on the same basemap as the dispatcher's map. Loaded apart from the page's script, so the
 * route list shows at once on a slow phone; the list stays the way to work, the map is the overview.
 */
import L from 'leaflet';
import { addBasemap } from './basemap.js';
import { h } from './dom.js';
import { stopIcon } from './map-marks.js';
import type { DriverRouteView } from './types.js';

const ROUTE_COLOR = '#1d4ed8';
const STYLESHEET = '/assets/driver-map-style.css';

let drawn: { map: L.Map; marks: L.LayerGroup } | null = null;
let styled: Promise<void> | null = null;

/** Draws `route` above the stop list, making the map the first time; later calls redraw the marks only. */
export async function showRouteMap(route: DriverRouteView, before: HTMLElement): Promise<void> {
  if (route.stops.length === 0) return;
  // Leaflet measures its box once: the box's size comes with the stylesheet.
  await (styled ??= loadStylesheet());
  drawn ??= createMap(route, before);
  drawMarks(route, drawn.marks);
  if (!drawn.map.getContainer().dataset.fitted) {
    const points = placesOf(route);
    drawn.map.fitBounds(L.latLngBounds(points).pad(0.1), { maxZoom: 16, animate: false });
    drawn.map.getContainer().dataset.fitted = 'true';
  }
}

/** Resolves once the map's stylesheet applies; a failed load leaves the map unstyled rather than missing. */
function loadStylesheet(): Promise<void> {
  return new Promise((resolve) => {
    const link = h('link', { rel: 'stylesheet', href: STYLESHEET });
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => resolve());
    document.head.append(link);
  });
}

function createMap(route: DriverRouteView, before: HTMLElement): { map: L.Map; marks: L.LayerGroup } {
  const box = h('div', { class: 'route-map-box', role: 'region', 'aria-label': 'Map of your route' });
  const section = h(
    'div',
    { class: 'route-map' },
    box,
    h('p', { class: 'route-map-note' }, 'Numbers follow your stop list: ✓ done, ✗ failed.'),
  );
  before.before(section);
  const tiles = route.tiles ?? null;
  const map = L.map(box, { attributionControl: tiles !== null, zoomSnap: 0.25, scrollWheelZoom: false });
  addBasemap(map, box, tiles);
  const marks = L.layerGroup().addTo(map);
  return { map, marks };
}

function drawMarks(route: DriverRouteView, marks: L.LayerGroup): void {
  marks.clearLayers();
  L.polyline(placesOf(route), { color: '#ffffff', weight: 7, opacity: 0.9, interactive: false }).addTo(marks);
  L.polyline(placesOf(route), { color: ROUTE_COLOR, weight: 4, opacity: 0.9, interactive: false, className: 'route-line' }).addTo(marks);
  if (route.start) {
    const title = 'Depot: where the day starts';
    L.marker([route.start.lat, route.start.lng], { icon: depotIcon(), title, alt: title, keyboard: false }).addTo(marks);
  }
  route.stops.forEach((stop, index) => {
    const live = { status: stop.status, late: stop.late === true, eta_s: stop.eta_s ?? null };
    const word = stop.status === 'planned' ? '' : ` (${stop.status})`;
    const title = `Stop ${index + 1}: ${stop.name}${word}`;
    L.marker([stop.lat, stop.lng], { icon: stopIcon(index + 1, ROUTE_COLOR, live), title, alt: title, keyboard: false }).addTo(marks);
  });
}

/** The roads the route follows when the plan has them; else start, stops, end in straight lines, the order the driver goes. */
function placesOf(route: DriverRouteView): L.LatLngExpression[] {
  if (route.geometry) return route.geometry.coordinates.map(([lng, lat]): L.LatLngTuple => [lat, lng]);
  return [
    ...(route.start ? [[route.start.lat, route.start.lng] as L.LatLngTuple] : []),
    ...route.stops.map((stop): L.LatLngTuple => [stop.lat, stop.lng]),
    ...(route.end ? [[route.end.lat, route.end.lng] as L.LatLngTuple] : []),
  ];
}

function depotIcon(): L.DivIcon {
  return L.divIcon({ html: '<span class="depot">D</span>', className: 'pin-icon', iconSize: [26, 26], iconAnchor: [13, 13] });
}
