/**
 * The Leaflet map: depots and stops of the project, then a plan's routes in distinct colours with
 * numbered stop markers, along the roads when the plan has their shapes (routes[].geometry). The
 * streets come from the session's basemap (basemap.ts); without one, a plain background with a
 * scale, so the page works fully offline. After dispatch the markers show each stop's report and
 * lateness, and each driver's shared position is drawn (decisions.md, "The live day").
 */
import L from 'leaflet';
import type { Plan, PlanRoute } from '../output/plan-types.js';
import { routeColor } from '../output/palette.js';
import { routeLocations, stopVisits } from '../output/visits.js';
import { addBasemap } from './basemap.js';
import { button, h } from './dom.js';
import { legendView } from './map-legend.js';
import { ageText, liveOf, positionIcon, stopDetails, stopIcon, stopWords } from './map-marks.js';
import { depots } from './project-data.js';
import type { Coords, DispatchView, Project, Session } from './types.js';

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
  private readonly positionLayer = L.layerGroup();
  /** One layer per route of the plan shown, by vehicle index, so the legend can hide each. */
  private readonly routeLayers = new Map<number, L.LayerGroup>();
  private readonly hidden = new Set<number>();
  private project: Project | null = null;
  private plan: Plan | null = null;
  private dispatch: DispatchView | null = null;
  /** What the markers were last drawn from: a poll that changed nothing redraws nothing (and closes no popup). */
  private drawnReports = '';
  private drawnPositions = '';
  private projectBounds: L.LatLngBounds | null = null;
  /** Ends the "place on map" mode under way, if one is. */
  private stopPlacing: (() => void) | null = null;

  constructor(
    element: HTMLElement,
    session: Session,
    private readonly legend: HTMLElement,
  ) {
    this.map = L.map(element, { attributionControl: session.tiles !== null, zoomSnap: 0.25 });
    addBasemap(this.map, element, session.tiles);
    L.control.scale({ imperial: false }).addTo(this.map);
    this.projectLayer.addTo(this.map);
    this.planLayer.addTo(this.map);
    this.positionLayer.addTo(this.map);
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
    this.project = project;
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
    this.plan = plan;
    this.map.getContainer().classList.toggle('has-plan', plan !== null);
    const points = this.drawPlan();
    if (plan !== null) this.fit(points.length > 0 ? L.latLngBounds(points) : this.projectBounds);
    this.showLegend(plan);
  }

  /**
   * The day's reports and positions (the dispatch panel's polls): markers redrawn only when a
   * report changed, positions when one moved or its age did; the view stays where the user put it.
   */
  showDispatch(dispatch: DispatchView | null): void {
    this.dispatch = dispatch;
    const reports = JSON.stringify(dispatch?.stops.map((stop) => [stop.stop_id, stop.status, stop.late, stop.eta_s]) ?? []);
    if (reports !== this.drawnReports && this.plan !== null) this.drawPlan();
    this.drawPositions();
    this.showLegend(this.plan);
  }

  private drawPlan(): L.LatLngExpression[] {
    this.planLayer.clearLayers();
    this.routeLayers.clear();
    this.drawnReports = JSON.stringify(this.dispatch?.stops.map((stop) => [stop.stop_id, stop.status, stop.late, stop.eta_s]) ?? []);
    const plan = this.plan;
    if (plan === null) return [];
    const points: L.LatLngExpression[] = [];
    plan.routes.forEach((route, position) => {
      const layer = L.layerGroup();
      points.push(...this.drawRoute(route, position, layer));
      this.routeLayers.set(route.vehicle_index, layer);
      if (!this.hidden.has(route.vehicle_index)) layer.addTo(this.planLayer);
    });
    for (const entry of plan.unserved) {
      if (!entry.location) continue;
      const title = `Unserved: ${entry.stop} — ${entry.message}`;
      L.marker(entry.location, { icon: unservedIcon(), title, alt: title, keyboard: false })
        .bindTooltip(textTip(title))
        .addTo(this.planLayer);
      points.push(entry.location);
    }
    return points;
  }

  private drawRoute(route: PlanRoute, position: number, layer: L.LayerGroup): L.LatLngExpression[] {
    const color = routeColor(position);
    const line = routeLine(route);
    L.polyline(line, { color: '#ffffff', weight: 7, opacity: 0.9, interactive: false }).addTo(layer);
    L.polyline(line, { color, weight: 4, opacity: 0.95, className: `route-line route-line-${route.vehicle_index}` })
      .bindTooltip(textTip(`Route ${position + 1}: ${route.vehicle}`), { sticky: true })
      .addTo(layer);
    const reports = new Map(this.dispatch?.stops.map((stop) => [stop.stop_id, stop]) ?? []);
    stopVisits(route).forEach((visit, order) => {
      const stop = this.project?.stops[visit.stop_index];
      const live = liveOf(stop ? reports.get(stop.id) : undefined);
      const title = stopWords(route, visit, order + 1, live);
      L.marker(visit.location, { icon: stopIcon(order + 1, color, live), title, alt: title, keyboard: false })
        .bindTooltip(textTip(title))
        .bindPopup(() => stopDetails(route, visit, stop?.name === visit.stop ? stop : undefined, live), { maxWidth: 280 })
        .addTo(layer);
    });
    // Leaflet draws a layer's paths only once it is on a map with a view: untab them then.
    layer.on('add', () => layer.eachLayer((each) => each instanceof L.Path && untabbed(each)));
    if (this.map.hasLayer(this.planLayer)) layer.eachLayer((each) => each instanceof L.Path && untabbed(each));
    return line;
  }

  /** Each driver's last shared position, in their route's colour, with their name and its age. */
  private drawPositions(): void {
    const now = Date.now();
    const drivers = this.dispatch?.drivers.filter((link) => link.position !== undefined) ?? [];
    const drawn = JSON.stringify(drivers.map((link) => [link.driver_id, link.position, ageText(link.position!.at, now)]));
    if (drawn === this.drawnPositions) return;
    this.drawnPositions = drawn;
    this.positionLayer.clearLayers();
    for (const link of drivers) {
      const position = link.position!;
      const route = this.plan?.routes.findIndex((each) => this.project?.drivers[each.vehicle_index]?.id === link.driver_id) ?? -1;
      const color = route >= 0 ? routeColor(route) : '#334155';
      const title = `${link.driver_name}: last position ${ageText(position.at, now)}`;
      L.marker([position.lat, position.lng], {
        icon: positionIcon(link.driver_name, color, position, now),
        title,
        alt: title,
        keyboard: false,
        zIndexOffset: 3000,
      })
        .bindTooltip(textTip(title))
        .addTo(this.positionLayer);
    }
  }

  /** The legend's checkbox: a hidden route keeps its place in the plan and comes back as it was. */
  private toggleRoute(vehicleIndex: number, shown: boolean): void {
    if (shown) this.hidden.delete(vehicleIndex);
    else this.hidden.add(vehicleIndex);
    const layer = this.routeLayers.get(vehicleIndex);
    if (layer === undefined) return;
    if (shown) layer.addTo(this.planLayer);
    else this.planLayer.removeLayer(layer);
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
    this.legend.replaceChildren(
      ...legendView({
        plan,
        hidden: this.hidden,
        dispatched: this.dispatch !== null,
        late: this.dispatch?.stops.some((stop) => stop.late === true && stop.status === 'planned') ?? false,
        positions: this.dispatch?.drivers.some((link) => link.position !== undefined) ?? false,
        onToggle: (vehicleIndex, shown) => this.toggleRoute(vehicleIndex, shown),
      }),
    );
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

/** Along the roads when the plan has the route's shape, straight from place to place otherwise. */
function routeLine(route: PlanRoute): L.LatLngExpression[] {
  if (route.geometry) return route.geometry.coordinates.map(([lng, lat]) => [lat, lng]);
  return routeLocations(route).map((point) => [point.lat, point.lng]);
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
