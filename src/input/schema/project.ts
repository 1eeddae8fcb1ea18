/** Surface A: a project (name, date, drivers, stops, settings). */
import { z } from 'zod';
import {
  allowed,
  clock,
  email,
  flag,
  freeObject,
  isoDate,
  labels,
  latitude,
  loadValue,
  longitude,
  minutes,
  name,
  optional,
  phone,
  priority,
  speed,
  text,
  windowHasAnEnd,
} from './fields.js';
import { checkLockedDrivers, sequence, sequenceNeedsDriver, sequenceWithoutDriver } from './locks.js';
import { carried } from './vocabulary.js';
import { timeZone } from './time-zone.js';
import { proofSetting } from './proof-setting.js';

const projectLocation = z
  .object(
    {
      address: optional(text('an address')),
      coords: optional(z.object({ lat: latitude, lng: longitude }, allowed('an object {lat, lng}'))),
    },
    allowed('a location object with coords {lat, lng} or an address'),
  )
  .superRefine((location, ctx) => {
    // An address alone is geocoded (input/locate.ts), or reported with every other one when no geocoder is configured.
    if (location.coords || location.address) return;
    ctx.addIssue({ code: 'custom', message: 'has neither coords nor an address; give coords {lat, lng} or an address' });
  });

/**
 * Where and from when a driver goes on with a day already under way (a re-optimization after
 * dispatch sets it: their last reported stop, at the later of now and that report).
 */
const resume = z.object(
  { lat: latitude, lng: longitude, at: clock },
  allowed('an object {lat, lng, at}: a place and the HH:mm time from which the driver goes on'),
);

const projectBreak = z.object({ start: clock, end: clock }, allowed('an object {start, end} of HH:mm times'));

export const driverSchema = z.object(
  {
    name,
    start_location: projectLocation,
    end_location: optional(projectLocation),
    shift_start: optional(clock),
    shift_end: optional(clock),
    phone_number: carried(1, optional(phone)),
    speed: optional(speed),
    capacity: optional(loadValue),
    types: optional(labels),
    break: optional(projectBreak),
    breaks: optional(z.array(projectBreak, allowed('a list of {start, end} objects'))),
    resume: optional(resume),
  },
  allowed('a driver object'),
);

/**
 * `time_windows` is a routeplan extension for projects (a CSV `time_windows` column lands
 * here): several windows, any one of which may be used, like the one-off `timeWindows`.
 */
const stopWindow = z
  .object({ start: optional(clock), end: optional(clock) }, allowed('an object {start, end}'))
  .refine((w) => w.start != null || w.end != null, windowHasAnEnd('start', 'end'));

export const stopSchema = z
  .object(
    {
      name,
      location: projectLocation,
      start: optional(clock),
      end: optional(clock),
      time_windows: optional(z.array(stopWindow, allowed('a list of {start, end} objects'))),
      duration: optional(minutes),
      load: optional(loadValue),
      types: optional(labels),
      priority: optional(priority),
      phone_number: carried(3, optional(phone)),
      email: carried(4, optional(email)),
      notes: carried(1, optional(text('a text'))),
      custom_notes: carried(2, optional(freeObject)),
      /** Locks (locks.ts): carried so that the plan says what the user locked. */
      driver: carried(5, optional(name)),
      sequence: carried(6, optional(sequence)),
      /** The driver the stop stays with unless moving it serves more priority (the stability level of the objective). */
      preferred_driver: optional(name),
    },
    allowed('a stop object'),
  )
  .refine((stop) => !sequenceWithoutDriver(stop), sequenceNeedsDriver)
  .refine((stop) => !hasBothWindowForms(stop), {
    path: ['time_windows'],
    message: 'give either start/end or time_windows, not both',
    // Checked even when other fields of the stop are wrong, so that every error shows at once.
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });

function hasBothWindowForms(stop: { start?: unknown; end?: unknown; time_windows?: unknown }): boolean {
  const single = stop.start != null || stop.end != null;
  return single && Array.isArray(stop.time_windows) && stop.time_windows.length > 0;
}

const TRAFFIC_ALLOWED = 'a travel-time multiplier from 1 to 2';

const settingsSchema = z.object(
  {
    max_stop_lateness: optional(minutes),
    max_driver_overtime: optional(minutes),
    shortest_distance: optional(flag),
    traffic: optional(z.number(allowed(TRAFFIC_ALLOWED)).min(1, allowed(TRAFFIC_ALLOWED)).max(2, allowed(TRAFFIC_ALLOWED))),
    strict_start: optional(flag),
    auto_balance: optional(flag),
    default_load: optional(loadValue),
    default_duration: optional(minutes),
    /** Passed to a road travel source (--travel osrm|valhalla); no effect with the offline model. */
    exclude_tolls: optional(flag),
    exclude_ferry: optional(flag),
    /** The IANA zone "now" is read in when a dispatched day is re-optimized (default: the server's). */
    time_zone: optional(timeZone),
    /** What a driver must give on Done: none (default), photo, signature or photo_or_signature. */
    proof: optional(proofSetting),
  },
  allowed('a settings object'),
);

export const projectSchema = z
  .object({
    name,
    date: isoDate,
    drivers: optional(z.array(driverSchema, allowed('a list of drivers'))),
    stops: optional(z.array(stopSchema, allowed('a list of stops'))),
    settings: optional(settingsSchema),
  })
  // A lock names a driver of the same document; checked even when other fields are wrong.
  .superRefine(checkLockedDrivers, { when: (payload) => typeof payload.value === 'object' && payload.value !== null });

export type ProjectDocument = z.infer<typeof projectSchema>;
export type ProjectDriver = z.infer<typeof driverSchema>;
export type ProjectStop = z.infer<typeof stopSchema>;
export type ProjectLocation = z.infer<typeof projectLocation>;
