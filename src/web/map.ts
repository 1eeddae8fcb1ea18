/**
 * The Leaflet map: depots and stops of the project, then a plan's routes in distinct colours with
 * numbered stop markers. Tiles only when the operator configured them (/session `tiles`);
 * otherwise a plain background with a scale, so the page works fully offline.
 */
import L from 'leaflet';
import type { Plan, PlanRoute, PlanStopVisit } from '../output/plan-types.js';
import { routeColor } from '../output/palette.js';
import { routeLocations, stopVisits } from '../output/visits.js';
import { formatDistance, formatTime, plural } from '../output/format.js';
import { button, h } from './dom.js';
import { depots } from './project-data.js';
import type { Coords, Project, Session } from './types.js';

const DISPLAY = { raw: false };

/**
 * Markers are not tab stops (`keyboard: false`): a plan of hundreds of stops would put hundreds of
 * them between a keyboard user and the Optimize button, and the tables below say the same in words.
 * The map itself stays focusable and pans and zooms with the arrow and +/- keys.
 */
export class ProjectMap {
  private readonly map: L.Map;
  private readonly projectLayer = L.layerGroup();
  private readonly planLayer = L.layerGroup();
  private readonly placingLayer = L.layerGroup();
  private projectBounds: L.LatLngBounds | null = null;
  /** Ends the "place on map" mode under way, if one is. */
  private stopPlacing: (() => void) | null = null;

  constructor(
    element: HTMLElement,
    session: Session,
    private readonly legend: HTMLElement,
  ) {
    this.map = L.map(element, { attributionControl: session.tiles !== null, zoomSnap: 0.25 });
    if (session.tiles) {
      L.tileLayer(session.tiles.url, { attribution: session.tiles.attribution, maxZoom: 19 }).addTo(this.map);
    } else {
      element.classList.add('map-offline');
    }
    L.control.scale({ imperial: false }).addTo(this.map);
    this.projectLayer.addTo(this.map);
    this.planLayer.addTo(this.map);
    this.placingLayer.addTo(this.map);
  }

  /**
   * "Place on map" for one stop or depot: the next click on the map places it there, and the
   * marker shown at its current place may be dragged instead. A bar above the map says what is
   * being placed and offers Cancel (so does Escape). The keyboard way is the editor's lat/lng fields.
   */
  place(label: string, current: Coords | undefined, onPlace: (coords: Coords) => void): void {
    this.stopPlacing?.();
    const container = this.map.getContainer();
    const finish = (point: L.LatLng): void => {
      end();
      onPlace({ lat: rounded(point.lat), lng: rounded(point.lng) });
    };
    const onClick = (event: L.LeafletMouseEvent): void => finish(event.latlng);
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') end();
    };
    const bar = h(
      'div',
      { class: 'placing-bar', role: 'status' },
      h('span', {}, `Placing “${label}”: click the map where it is${current ? ', or drag its marker' : ''}.`),
      button('Cancel placing', () => end(), { class: 'button small' }),
    );
    const end = (): void => {
      this.map.off('click', onClick);
      document.removeEventListener('keydown', onKey);
      this.placingLayer.clearLayers();
      container.classList.remove('placing');
      bar.remove();
      this.stopPlacing = null;
    };
    this.stopPlacing = end;
    container.classList.add('placing');
    container.before(bar);
    this.map.on('click', onClick);
    document.addEventListener('keydown', onKey);
    if (current) {
      const title = `${label} (drag to move)`;
      L.marker(current, { draggable: true, icon: placingIcon(), title, alt: title, keyboard: false, zIndexOffset: 2000 })
        .on('dragend', (event) => finish((event.target as L.Marker).getLatLng()))
        .addTo(this.placingLayer);
      this.map.setView(current, Math.max(this.map.getZoom(), 15), { animate: false });
    }
    // The bar first: it says what a click will do, and the map is just below it.
    bar.scrollIntoView({ block: 'start' });
    container.focus({ preventScroll: true });
  }

  showProject(project: Project): void {
    this.projectLayer.clearLayers();
    const points: L.LatLngExpression[] = [];
    for (const depot of depots(project)) {
      const title = `Depot: ${depot.label || 'start/end'} (${depot.drivers.join(', ')})`;
      L.marker(depot.coords, { icon: depotIcon(), title, alt: title, zIndexOffset: 1000, keyboard: false })
        .bindTooltip(textTip(title))
        .addTo(this.projectLayer);
      points.push(depot.coords);
    }
    project.stops.forEach((stop, index) => {
      const coords = stop.location?.coords;
      if (!coords) return;
      const dot = L.circleMarker(coords, {
        radius: 5,
        color: '#475569',
        weight: 1.5,
        fillColor: '#cbd5e1',
        fillOpacity: 1,
        className: 'stop-dot',
      });
      dot.bindTooltip(textTip(`${index + 1}. ${stop.name}`)).addTo(this.projectLayer);
      points.push(coords);
    });
    this.projectBounds = points.length > 0 ? L.latLngBounds(points) : null;
    this.fit(this.projectBounds);
    // Only now, with a view, has Leaflet drawn the dots (a map without one defers its layers).
    this.projectLayer.eachLayer((layer) => {
      if (layer instanceof L.Path) untabbed(layer);
    });
    this.showLegend(null);
  }

  /** Draws a plan over the project (null clears it); the unplanned stop dots hide under it. */
  showPlan(plan: Plan | null): void {
    this.planLayer.clearLayers();
    this.map.getContainer().classList.toggle('has-plan', plan !== null);
    if (plan === null) {
      this.showLegend(null);
      return;
    }
    const points: L.LatLngExpression[] = [];
    plan.routes.forEach((route, position) => points.push(...this.drawRoute(route, position)));
    for (const entry of plan.unserved) {
      if (!entry.location) continue;
      const title = `Unserved: ${entry.stop} — ${entry.message}`;
      L.marker(entry.location, { icon: unservedIcon(), title, alt: title, keyboard: false })
        .bindTooltip(textTip(title))
        .addTo(this.planLayer);
      points.push(entry.location);
    }
    this.fit(points.length > 0 ? L.latLngBounds(points) : this.projectBounds);
    this.showLegend(plan);
  }

  private drawRoute(route: PlanRoute, position: number): L.LatLngExpression[] {
    const color = routeColor(position);
    const line = routeLine(route);
    L.polyline(line, { color: '#ffffff', weight: 7, opacity: 0.9, interactive: false }).addTo(this.planLayer);
    untabbed(
      L.polyline(line, { color, weight: 4, opacity: 0.95 })
        .bindTooltip(textTip(`Route ${position + 1}: ${route.vehicle}`), { sticky: true })
        .addTo(this.planLayer),
    );
    stopVisits(route).forEach((visit, order) => {
      const title = stopTitle(route, visit, order + 1);
      L.marker(visit.location, { icon: numberedIcon(order + 1, color), title, alt: title, keyboard: false })
        .bindTooltip(textTip(title))
        .addTo(this.planLayer);
    });
    return line;
  }

  private fit(bounds: L.LatLngBounds | null): void {
    if (bounds === null) {
      this.map.setView([0, 0], 2);
      return;
    }
    this.map.fitBounds(bounds.pad(0.08), { maxZoom: 16, animate: false });
  }

  /** Call when the map's box changed size (Leaflet measures it once). */
  resize(): void {
    this.map.invalidateSize();
  }

  private showLegend(plan: Plan | null): void {
    const keys = [
      h('li', {}, h('span', { class: 'key key-depot', 'aria-hidden': 'true' }), 'Depot'),
      plan === null ? h('li', {}, h('span', { class: 'key key-stop', 'aria-hidden': 'true' }), 'Stop') : null,
      plan !== null && plan.unserved.length > 0
        ? h('li', {}, h('span', { class: 'key key-unserved', 'aria-hidden': 'true' }, '×'), 'Unserved stop')
        : null,
    ];
    const routes = (plan?.routes ?? []).map((route, position) => {
      const stops = stopVisits(route).length;
      return h(
        'li',
        {},
        h('span', { class: 'key key-line', style: `--route:${routeColor(position)}`, 'aria-hidden': 'true' }),
        h('strong', {}, `${position + 1}. ${route.vehicle}`),
        ` — ${plural(stops, 'stop')}, ${formatDistance(route.distance_m)}`,
      );
    });
    this.legend.replaceChildren(h('h3', { class: 'visually-hidden' }, 'Legend'), h('ul', { class: 'legend-list' }, ...keys, ...routes));
  }
}

/** Leaflet puts a string tooltip in as HTML; names come from the project, so they go in as text. */
function textTip(text: string): HTMLElement {
  return h('span', {}, text);
}

/** Chromium makes an SVG shape with focus listeners (Leaflet's, for its tooltip) a tab stop; see ProjectMap. */
function untabbed(layer: L.Path): void {
  layer.getElement()?.setAttribute('tabindex', '-1');
}

function routeLine(route: PlanRoute): L.LatLngExpression[] {
  return routeLocations(route).map((point) => [point.lat, point.lng]);
}

function stopTitle(route: PlanRoute, visit: PlanStopVisit, order: number): string {
  const time = visit.arrival_s === null ? 'no ETA' : `arrival ${formatTime(visit.arrival, visit.arrival_s, DISPLAY)}`;
  return `${route.vehicle} #${order}: ${visit.stop} (${time})`;
}

function numberedIcon(order: number, color: string): L.DivIcon {
  const html = `<span class="pin" style="--route:${color}">${order}</span>`;
  return L.divIcon({ html, className: 'pin-icon', iconSize: [24, 24], iconAnchor: [12, 12], tooltipAnchor: [12, 0] });
}

function depotIcon(): L.DivIcon {
  return L.divIcon({
    html: '<span class="depot">D</span>',
    className: 'pin-icon',
    iconSize: [26, 26],
    iconAnchor: [13, 13],
    tooltipAnchor: [13, 0],
  });
}

/** Six decimals: about 10 cm, finer than any click. */
function rounded(degrees: number): number {
  return Math.round(degrees * 1e6) / 1e6;
}

function placingIcon(): L.DivIcon {
  return L.divIcon({
    html: '<span class="placing-pin" aria-hidden="true"></span>',
    className: 'pin-icon',
    iconSize: [28, 28],
    iconAnchor: [14, 28],
    tooltipAnchor: [14, -14],
  });
}

function unservedIcon(): L.DivIcon {
  return L.divIcon({
    html: '<span class="unserved-pin">×</span>',
    className: 'pin-icon',
    iconSize: [20, 20],
    iconAnchor: [10, 10],
    tooltipAnchor: [10, 0],
  });
}
