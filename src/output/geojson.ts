/**
 * The plan as a GeoJSON FeatureCollection (RFC 7946): one LineString per route through its
 * start, stops and end, one Point per start location, per served stop and per unserved stop
 * that has a location. Coordinates are [lng, lat]. Built from the plan alone, like the tables.
 */
import type { Plan, PlanLocation, PlanRoute, PlanStopVisit, PlanUnserved } from './plan-types.js';
import { routeColor } from './palette.js';
import { stopVisits } from './visits.js';

export type Position = [number, number];

export interface LineStringFeature {
  type: 'Feature';
  geometry: { type: 'LineString'; coordinates: Position[] };
  properties: Record<string, unknown>;
}

export interface PointFeature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: Position };
  properties: Record<string, unknown>;
}

export interface PlanFeatureCollection {
  type: 'FeatureCollection';
  features: Array<LineStringFeature | PointFeature>;
}

export function buildGeoJson(plan: Plan): PlanFeatureCollection {
  const features: Array<LineStringFeature | PointFeature> = [];
  plan.routes.forEach((route, position) => {
    features.push(routeLine(route, position));
    features.push(startPoint(route, position));
    stopVisits(route).forEach((visit, order) => features.push(stopPoint(route, position, visit, order + 1)));
  });
  for (const entry of plan.unserved) {
    if (entry.location) features.push(unservedPoint(entry, entry.location));
  }
  return { type: 'FeatureCollection', features };
}

function unservedPoint(entry: PlanUnserved, location: PlanLocation): PointFeature {
  const { location: _location, ...fields } = entry;
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: toPosition(location) },
    properties: { kind: 'unserved', ...fields },
  };
}

function routeLine(route: PlanRoute, position: number): LineStringFeature {
  const points: PlanLocation[] = [route.start.location ?? fallbackStart(route)];
  for (const visit of stopVisits(route)) points.push(visit.location);
  if (route.end.location !== null) points.push(route.end.location);
  // A LineString needs two positions; a route with one visit at its depot still draws a line.
  if (points.length === 1) points.push(points[0] as PlanLocation);
  // Along the roads when the provider drew the route (routes[].geometry), straight between the places otherwise.
  const coordinates = route.geometry ? route.geometry.coordinates.map(([lng, lat]): Position => [lng, lat]) : points.map(toPosition);
  return {
    type: 'Feature',
    geometry: { type: 'LineString', coordinates },
    properties: {
      kind: 'route',
      route: position + 1,
      vehicle: route.vehicle,
      vehicle_index: route.vehicle_index,
      color: routeColor(position),
      stops: stopVisits(route).length,
      start: route.start.time,
      end: route.end.time,
      distance_m: route.distance_m,
      working_s: route.working_s,
      open_end: route.end.location === null,
    },
  };
}

function startPoint(route: PlanRoute, position: number): PointFeature {
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: toPosition(route.start.location ?? fallbackStart(route)) },
    properties: {
      kind: 'start',
      route: position + 1,
      vehicle: route.vehicle,
      vehicle_index: route.vehicle_index,
      color: routeColor(position),
      time: route.start.time,
    },
  };
}

function stopPoint(route: PlanRoute, position: number, visit: PlanStopVisit, order: number): PointFeature {
  const { kind: _kind, location, ...fields } = visit;
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: toPosition(location) },
    properties: {
      kind: 'stop',
      route: position + 1,
      vehicle: route.vehicle,
      vehicle_index: route.vehicle_index,
      color: routeColor(position),
      order,
      ...fields,
    },
  };
}

/** The plan types the start location as always present; stay total if a remote plan omits it. */
function fallbackStart(route: PlanRoute): PlanLocation {
  const first = stopVisits(route)[0];
  return first ? first.location : { lat: 0, lng: 0 };
}

function toPosition(location: PlanLocation): Position {
  return [location.lng, location.lat];
}
