/**
 * The fields the interface names, per surface. Anything else is ignored by the solver and
 * reported as a warning (decisions.md "Unknown and extra fields"), so a typo such as
 * `prority` does not pass silently.
 */
import type { Warning } from '../errors.js';
import type { PathNamer } from './paths.js';

/** `value`: a leaf whose content is not checked for field names (free-form or scalar). */
type FieldTree = 'value' | { object: Record<string, FieldTree> } | { list: FieldTree };

const value = 'value' as const;
const object = (fields: Record<string, FieldTree>): FieldTree => ({ object: fields });
const list = (item: FieldTree): FieldTree => ({ list: item });

const projectLocation = object({ address: value, coords: object({ lat: value, lng: value }) });
const projectBreak = object({ start: value, end: value });

export const PROJECT_FIELDS: FieldTree = object({
  name: value,
  date: value,
  drivers: list(
    object({
      name: value,
      start_location: projectLocation,
      end_location: projectLocation,
      shift_start: value,
      shift_end: value,
      phone_number: value,
      speed: value,
      capacity: value,
      types: value,
      break: projectBreak,
      breaks: list(projectBreak),
    }),
  ),
  stops: list(
    object({
      name: value,
      location: projectLocation,
      start: value,
      end: value,
      time_windows: list(object({ start: value, end: value })),
      duration: value,
      load: value,
      types: value,
      priority: value,
      phone_number: value,
      email: value,
      notes: value,
      custom_notes: value,
    }),
  ),
  settings: object({
    max_stop_lateness: value,
    max_driver_overtime: value,
    shortest_distance: value,
    traffic: value,
    strict_start: value,
    auto_balance: value,
    default_load: value,
    default_duration: value,
  }),
});

const locationEntry = object({ address: value, latitude: value, longitude: value });

/** `routes`, `orders`, `date` and `workspaceUuid` are rejected elsewhere, so they are listed here. */
export const ONEOFF_FIELDS: FieldTree = object({
  routesData: list(
    object({
      name: value,
      constraints: object({
        startTime: value,
        endTime: value,
        capacity: value,
        startLocations: list(locationEntry),
        endLocations: list(locationEntry),
        tags: value,
      }),
    }),
  ),
  ordersData: list(
    object({
      name: value,
      locations: list(locationEntry),
      duration: value,
      load: value,
      timeWindows: list(object({ startTime: value, endTime: value })),
      tags: value,
      displayOrderId: value,
      customerOrderNumber: value,
    }),
  ),
  options: object({
    minimizeRoutes: value,
    balanceType: value,
    flexibleStartTime: value,
    excludeTolls: value,
    excludeFerry: value,
    squashDuration: value,
    defaultOrderDuration: value,
    allowCapacityOverload: value,
    allowRouteOvertime: value,
    allowVisitLateness: value,
  }),
  routes: value,
  orders: value,
  date: value,
  workspaceUuid: value,
});

function isPlainObject(input: unknown): input is Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

/** One warning per unknown field (per CSV column for tables), in document order. */
export function unknownFieldWarnings(document: unknown, tree: FieldTree, namer: PathNamer): Warning[] {
  const warnings: Warning[] = [];
  const seen = new Set<string>();
  const visit = (input: unknown, node: FieldTree, path: PropertyKey[]) => {
    if (node === 'value') return;
    if ('list' in node) {
      if (Array.isArray(input)) input.forEach((item, i) => visit(item, node.list, [...path, i]));
      return;
    }
    if (!isPlainObject(input)) return;
    for (const [key, child] of Object.entries(input)) {
      const known = node.object[key];
      if (known === undefined) {
        const where = namer.nameForWarning([...path, key]);
        if (seen.has(where)) continue;
        seen.add(where);
        warnings.push({ path: where, message: `unknown field "${key}" is ignored${suggestion(key, node.object)}` });
      } else {
        visit(child, known, [...path, key]);
      }
    }
  };
  visit(document, tree, []);
  return warnings;
}

/** " (did you mean "priority"?)" for a near-miss, so typos are easy to spot. */
function suggestion(key: string, known: Record<string, FieldTree>): string {
  const lower = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of Object.keys(known)) {
    const distance = editDistance(lower, candidate.toLowerCase().replace(/[^a-z0-9]/g, ''));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== null && bestDistance <= Math.max(1, Math.floor(best.length / 4)) ? ` (did you mean "${best}"?)` : '';
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
