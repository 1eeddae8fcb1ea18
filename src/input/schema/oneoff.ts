/** Surface B: a one-off schedule request (routesData, ordersData, options). */
import { z } from 'zod';
import { carried } from './vocabulary.js';
import { allowed, clock, windowHasAnEnd, flag, labels, latitude, loadValue, longitude, minutes, name, optional, text } from './fields.js';

export const locationEntry = z
  .object(
    {
      address: optional(text('an address')),
      latitude: optional(latitude),
      longitude: optional(longitude),
    },
    allowed('a location entry {latitude, longitude, address}'),
  )
  .superRefine((entry, ctx) => {
    const hasLat = entry.latitude != null;
    const hasLng = entry.longitude != null;
    if (hasLat !== hasLng) {
      ctx.addIssue({
        code: 'custom',
        path: [hasLat ? 'longitude' : 'latitude'],
        message: 'missing; give both latitude and longitude',
      });
    } else if (!hasLat && !entry.address) {
      ctx.addIssue({ code: 'custom', message: 'has neither latitude/longitude nor an address; give latitude and longitude' });
    }
  });

/** Only the first entry of a list is used (decisions.md); an address alone is geocoded (input/locate.ts). */
const locationList = z.array(locationEntry, allowed('a list of location entries'));

export const routeSchema = z
  .object(
    {
      name: optional(name),
      constraints: optional(
        z.object(
          {
            startTime: optional(clock),
            endTime: optional(clock),
            capacity: optional(loadValue),
            startLocations: optional(locationList),
            endLocations: optional(locationList),
            tags: optional(labels),
          },
          allowed('a constraints object'),
        ),
      ),
    },
    allowed('a route object'),
  )
  .refine((route) => hasStartLocation(route), {
    path: ['constraints', 'startLocations'],
    message: 'missing; a route needs a start location {latitude, longitude}',
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });

function hasStartLocation(route: { constraints?: unknown }): boolean {
  const constraints = route.constraints;
  // Constraints of the wrong type have their own error; a missing start inside them is implied.
  if (constraints != null && (typeof constraints !== 'object' || Array.isArray(constraints))) return true;
  const starts = (constraints as { startLocations?: unknown } | null | undefined)?.startLocations;
  // A wrong startLocations value has its own error; only an absent or empty one is reported here.
  return starts !== undefined && starts !== null && !(Array.isArray(starts) && starts.length === 0);
}

const timeWindowEntry = z
  .object({ startTime: optional(clock), endTime: optional(clock) }, allowed('an object {startTime, endTime}'))
  .refine((w) => w.startTime != null || w.endTime != null, windowHasAnEnd('startTime', 'endTime'));

export const orderSchema = z.object(
  {
    name: optional(name),
    locations: optional(locationList),
    duration: optional(minutes),
    load: optional(loadValue),
    timeWindows: optional(z.array(timeWindowEntry, allowed('a list of {startTime, endTime} objects'))),
    tags: optional(labels),
    displayOrderId: carried(1, optional(z.union([z.string(), z.number()], allowed('a text')))),
    customerOrderNumber: carried(2, optional(z.union([z.string(), z.number()], allowed('a text')))),
  },
  allowed('an order object'),
);

const BALANCE_ALLOWED = 'none or orders';
const optionsSchema = z.object(
  {
    minimizeRoutes: optional(flag),
    balanceType: optional(z.enum(['none', 'orders'], allowed(BALANCE_ALLOWED))),
    flexibleStartTime: optional(flag),
    excludeTolls: optional(flag),
    excludeFerry: optional(flag),
    squashDuration: optional(minutes),
    defaultOrderDuration: optional(minutes),
    allowCapacityOverload: optional(flag),
    allowRouteOvertime: optional(flag),
    allowVisitLateness: optional(flag),
  },
  allowed('an options object'),
);

export const oneoffSchema = z.object({
  routesData: z.array(routeSchema, allowed('a list of routes')),
  ordersData: z.array(orderSchema, allowed('a list of orders')),
  options: optional(optionsSchema),
});

/** Top-level fields the interface names for a one-off request only to reject them (shape.ts). */
export const ONEOFF_REJECTED_FIELDS = ['routes', 'orders', 'date', 'workspaceUuid'] as const;

export type OneoffDocument = z.infer<typeof oneoffSchema>;
export type OneoffRoute = z.infer<typeof routeSchema>;
export type OneoffOrder = z.infer<typeof orderSchema>;
export type LocationEntry = z.infer<typeof locationEntry>;
