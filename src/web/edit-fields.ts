/**
 * The fields the editor shows for a stop, a driver and the project, and how each turns into the
 * JSON merge patch the API takes (decisions.md, "Editing a project"). Nothing is validated here:
 * the text goes to the service as typed (a number when it reads as one), and the service's 400
 * names the field by its path, which `fieldOfPath` maps back to the input that shows it.
 */
import type { ClockWindow, Project, ProjectDriver, ProjectLocation, ProjectStop } from './types.js';

export type FormValues = Record<string, string | boolean>;
export type Patch = Record<string, unknown>;

export interface FieldSpec {
  key: string;
  label: string;
  hint?: string;
  kind?: 'text' | 'checkbox' | 'textarea' | 'select';
  /** A select's choices: [value, label]. */
  options?: [string, string][];
  /** The error paths (relative to the item) this field shows: a path equal to one or below it. */
  paths: string[];
}

export interface FormSpec {
  fields: FieldSpec[];
  /** The values the form opens with. */
  valuesOf(): FormValues;
  /** The merge patch of the values (null removes a field). */
  patchOf(values: FormValues): Patch;
}

const WINDOWS_HINT = 'HH:mm-HH:mm; several separated by ;';

export function stopForm(stop: ProjectStop | undefined): FormSpec {
  return {
    fields: [
      { key: 'name', label: 'Name', paths: ['name'] },
      { key: 'address', label: 'Address', paths: ['location.address', 'location'] },
      {
        key: 'lat',
        label: 'Latitude',
        hint: 'e.g. 45.7640; set by hand, never geocoded',
        paths: ['location.coords.lat', 'location.coords'],
      },
      { key: 'lng', label: 'Longitude', hint: 'e.g. 4.8357', paths: ['location.coords.lng'] },
      { key: 'windows', label: 'Time windows', hint: WINDOWS_HINT, paths: ['start', 'end', 'time_windows'] },
      { key: 'duration', label: 'Duration (min)', paths: ['duration'] },
      { key: 'load', label: 'Load', paths: ['load'] },
      { key: 'priority', label: 'Priority', hint: 'low, regular, high or 1–10000', paths: ['priority'] },
      { key: 'types', label: 'Types', hint: 'separated by commas', paths: ['types'] },
      { key: 'phone_number', label: 'Phone', paths: ['phone_number'] },
      { key: 'email', label: 'E-mail', paths: ['email'] },
      { key: 'notes', label: 'Notes', kind: 'textarea', paths: ['notes'] },
    ],
    valuesOf: () => ({
      name: stop?.name ?? '',
      ...locationValues(stop?.location, ''),
      windows: windowsText(stop),
      duration: numberText(stop?.duration),
      load: typeof stop?.load === 'number' ? String(stop.load) : '',
      priority: stop?.priority !== undefined ? String(stop.priority) : '',
      types: listText(stop?.types),
      phone_number: stop?.phone_number ?? '',
      email: stop?.email ?? '',
      notes: stop?.notes ?? '',
    }),
    patchOf: (values) => ({
      name: text(values.name),
      location: locationPatch(values, ''),
      ...windowsPatch(String(values.windows), stop),
      duration: numberOrText(values.duration),
      // A load of named dimensions is not shown as a number: left as it is unless one is typed.
      ...(typeof stop?.load === 'object' && values.load === '' ? {} : { load: numberOrText(values.load) }),
      priority: numberOrText(values.priority),
      types: list(values.types),
      phone_number: text(values.phone_number),
      email: text(values.email),
      notes: text(values.notes),
    }),
  };
}

export function driverForm(driver: ProjectDriver | undefined): FormSpec {
  const breakOf = driver?.break ?? driver?.breaks?.[0];
  return {
    fields: [
      { key: 'name', label: 'Name', paths: ['name'] },
      { key: 'start_address', label: 'Start address', paths: ['start_location.address', 'start_location'] },
      { key: 'start_lat', label: 'Start latitude', paths: ['start_location.coords.lat', 'start_location.coords'] },
      { key: 'start_lng', label: 'Start longitude', paths: ['start_location.coords.lng'] },
      {
        key: 'end_address',
        label: 'End address',
        hint: 'empty: the route ends at its last stop',
        paths: ['end_location.address', 'end_location'],
      },
      { key: 'end_lat', label: 'End latitude', paths: ['end_location.coords.lat', 'end_location.coords'] },
      { key: 'end_lng', label: 'End longitude', paths: ['end_location.coords.lng'] },
      { key: 'shift_start', label: 'Shift start', hint: 'HH:mm', paths: ['shift_start'] },
      { key: 'shift_end', label: 'Shift end', hint: 'HH:mm', paths: ['shift_end'] },
      { key: 'capacity', label: 'Capacity', paths: ['capacity'] },
      { key: 'types', label: 'Types', hint: 'separated by commas', paths: ['types'] },
      { key: 'break', label: 'Break', hint: 'HH:mm-HH:mm', paths: ['break', 'breaks'] },
      { key: 'phone_number', label: 'Phone', paths: ['phone_number'] },
    ],
    valuesOf: () => ({
      name: driver?.name ?? '',
      ...locationValues(driver?.start_location, 'start_'),
      ...locationValues(driver?.end_location, 'end_'),
      shift_start: driver?.shift_start ?? '',
      shift_end: driver?.shift_end ?? '',
      capacity: numberText(driver?.capacity),
      types: listText(driver?.types),
      break: breakOf ? windowText(breakOf) : '',
      phone_number: driver?.phone_number ?? '',
    }),
    patchOf: (values) => ({
      name: text(values.name),
      start_location: locationPatch(values, 'start_'),
      end_location: locationPatch(values, 'end_'),
      shift_start: text(values.shift_start),
      shift_end: text(values.shift_end),
      capacity: numberOrText(values.capacity),
      types: list(values.types),
      ...breakPatch(String(values.break), driver),
      phone_number: text(values.phone_number),
    }),
  };
}

/** The settings a dispatcher changes day to day; the others stay as the file gave them. */
const NUMBER_SETTINGS: [string, string][] = [
  ['default_duration', 'Default duration (min)'],
  ['default_load', 'Default load'],
  ['max_stop_lateness', 'Allowed lateness per stop (min)'],
  ['max_driver_overtime', 'Allowed overtime per driver (min)'],
  ['traffic', 'Traffic factor (1–2)'],
];
const FLAG_SETTINGS: [string, string][] = [
  ['strict_start', 'Drivers leave exactly at shift start'],
  ['shortest_distance', 'Minimise distance instead of working time'],
  ['auto_balance', 'Balance the routes'],
];

/** `settings.proof`: what drivers must give on Done (the service validates the value). */
const PROOF_CHOICES: [string, string][] = [
  ['none', 'Nothing required'],
  ['photo', 'A photo'],
  ['signature', 'The recipient’s signature'],
  ['photo_or_signature', 'A photo or a signature'],
];

export function projectForm(project: Project): FormSpec {
  const settings = project.settings;
  return {
    fields: [
      { key: 'name', label: 'Project name', paths: ['name'] },
      { key: 'date', label: 'Date', hint: 'YYYY-MM-DD', paths: ['date'] },
      ...NUMBER_SETTINGS.map(([key, label]) => ({ key, label, paths: [`settings.${key}`] })),
      ...FLAG_SETTINGS.map(([key, label]) => ({ key, label, kind: 'checkbox' as const, paths: [`settings.${key}`] })),
      { key: 'proof', label: 'Proof of delivery on Done', kind: 'select', options: PROOF_CHOICES, paths: ['settings.proof'] },
    ],
    valuesOf: () => ({
      name: project.name,
      date: project.date,
      ...Object.fromEntries(NUMBER_SETTINGS.map(([key]) => [key, numberText(settings[key])])),
      ...Object.fromEntries(FLAG_SETTINGS.map(([key]) => [key, settings[key] === true])),
      proof: typeof settings.proof === 'string' ? settings.proof : 'none',
    }),
    patchOf: (values) => ({
      name: text(values.name),
      date: text(values.date),
      settings: {
        ...Object.fromEntries(NUMBER_SETTINGS.map(([key]) => [key, numberOrText(values[key])])),
        ...Object.fromEntries(FLAG_SETTINGS.map(([key]) => [key, values[key] === true ? true : null])),
        proof: values.proof === 'none' ? null : text(values.proof),
      },
    }),
  };
}

/**
 * Only what the user changed, so a change re-applied on a newer version (after a 412) leaves
 * everyone else's fields of the same stop as they are now. Objects compare whole below the top
 * level, except settings, which compare field by field (each is its own choice).
 */
export function changedPatch(before: Patch, after: Patch): Patch {
  const changed: Patch = {};
  for (const [field, value] of Object.entries(after)) {
    const was = before[field];
    if (field === 'settings' && isObject(value) && isObject(was)) {
      const inner = changedPatch(was, value);
      if (Object.keys(inner).length > 0) changed[field] = inner;
    } else if (JSON.stringify(value) !== JSON.stringify(was)) changed[field] = value;
  }
  for (const group of TOGETHER) {
    if (group.some((field) => field in changed)) for (const field of group) if (field in after) changed[field] = after[field];
  }
  return changed;
}

/**
 * Fields that say one thing between them: a stop's windows are start/end or time_windows, never
 * both, so a change of one form also removes the other (sent even when unchanged in the form).
 */
const TOGETHER: readonly string[][] = [['start', 'end', 'time_windows']];

/** A new item has nothing to remove: the patch's nulls left out, and empty objects with them. */
export function withoutNulls(patch: Patch): Patch {
  const kept: Patch = {};
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) continue;
    if (isObject(value)) {
      const inner = withoutNulls(value);
      if (Object.keys(inner).length > 0) kept[field] = inner;
    } else kept[field] = value;
  }
  return kept;
}

/**
 * The field that shows a problem at `path` (the service's, e.g. `stops[3].location.coords.lat`),
 * for the item at `prefix` (`stops[3]`; '' for the project); null when it belongs to none.
 */
export function fieldOfPath(fields: FieldSpec[], path: string, prefix: string): string | null {
  if (prefix !== '' && !path.startsWith(prefix)) return null;
  const relative = path.slice(prefix.length).replace(/^\./, '');
  let best: { key: string; length: number } | null = null;
  for (const field of fields) {
    for (const known of field.paths) {
      const below = relative === known || relative.startsWith(`${known}.`) || relative.startsWith(`${known}[`);
      if (below && (best === null || known.length > best.length)) best = { key: field.key, length: known.length };
    }
  }
  return best?.key ?? null;
}

function locationValues(location: ProjectLocation | undefined, prefix: string): FormValues {
  return {
    [`${prefix}address`]: location?.address ?? '',
    [`${prefix}lat`]: location?.coords ? String(location.coords.lat) : '',
    [`${prefix}lng`]: location?.coords ? String(location.coords.lng) : '',
  };
}

/** Empty address and coordinates remove the place (the service says whether it may go). */
function locationPatch(values: FormValues, prefix: string): Patch | null {
  const address = text(values[`${prefix}address`]);
  const lat = numberOrText(values[`${prefix}lat`]);
  const lng = numberOrText(values[`${prefix}lng`]);
  if (address === null && lat === null && lng === null) return null;
  const coords = lat === null && lng === null ? null : { lat, lng };
  return { address, coords };
}

function windowsText(stop: ProjectStop | undefined): string {
  if (!stop) return '';
  const windows: ClockWindow[] =
    stop.time_windows && stop.time_windows.length > 0
      ? stop.time_windows
      : stop.start || stop.end
        ? [{ start: stop.start, end: stop.end }]
        : [];
  return windows.map(windowText).join('; ');
}

function windowText(window: ClockWindow): string {
  return `${window.start ?? ''}-${window.end ?? ''}`;
}

/**
 * "08:00-10:00" is the stop's start and end; several windows go to `time_windows`. The form the
 * stop does not use then is removed only where the stop has it (a stop never has both).
 */
function windowsPatch(value: string, stop: ProjectStop | undefined): Patch {
  const windows = value
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(windowOf);
  const single = windows.length === 1 ? windows[0]! : {};
  const several = windows.length > 1 ? windows : null;
  return {
    ...(several === null || stop?.start !== undefined ? { start: single.start ?? null } : {}),
    ...(several === null || stop?.end !== undefined ? { end: single.end ?? null } : {}),
    ...(several !== null || stop?.time_windows !== undefined ? { time_windows: several } : {}),
  };
}

function breakPatch(value: string, driver: ProjectDriver | undefined): Patch {
  const window = value.trim() === '' ? null : windowOf(value.trim());
  // One break is edited here; a driver's further breaks stay as the file gave them.
  if (driver?.break === undefined && (driver?.breaks?.length ?? 0) > 0) {
    return { breaks: window ? [window, ...driver!.breaks!.slice(1)] : driver!.breaks!.slice(1) };
  }
  return { break: window };
}

/** "08:00-10:00", "08:00–10:00"; a side left empty is absent (from 08:00, until 10:00). */
function windowOf(part: string): ClockWindow {
  const [start = '', end = ''] = part.split(/\s*[-–]\s*/);
  return { ...(start !== '' ? { start } : {}), ...(end !== '' ? { end } : {}) };
}

function text(value: string | boolean | undefined): string | null {
  const trimmed = String(value ?? '').trim();
  return trimmed === '' ? null : trimmed;
}

/** A number when the text reads as one (a decimal comma too), else the text, for the service to judge. */
function numberOrText(value: string | boolean | undefined): number | string | null {
  const trimmed = text(value);
  if (trimmed === null) return null;
  const number = Number(trimmed.replace(',', '.'));
  return Number.isFinite(number) ? number : trimmed;
}

function list(value: string | boolean | undefined): string[] | null {
  const items = String(value ?? '')
    .split(/[,;]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length > 0 ? items : null;
}

function listText(types: string | string[] | undefined): string {
  if (types === undefined) return '';
  return (Array.isArray(types) ? types : [types]).join(', ');
}

function numberText(value: unknown): string {
  return typeof value === 'number' ? String(value) : '';
}

function isObject(value: unknown): value is Patch {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
