/**
 * The project map's legend: what each mark means, and one checkbox per route (its colour, number and
 * driver) that shows or hides that route on the map, usable by keyboard like any checkbox.
 */
import type { Plan } from '../output/plan-types.js';
import { formatDistance, plural } from '../output/format.js';
import { routeColor } from '../output/palette.js';
import { stopVisits } from '../output/visits.js';
import { h } from './dom.js';

export interface LegendState {
  plan: Plan | null;
  /** Routes hidden by the user, by vehicle index. */
  hidden: ReadonlySet<number>;
  /** After dispatch: the report marks (done, failed) get keys. */
  dispatched: boolean;
  /** Some stop's estimate passes its window: the late mark gets its key. */
  late: boolean;
  /** Some driver shares their position. */
  positions: boolean;
  onToggle(vehicleIndex: number, shown: boolean): void;
}

export function legendView(state: LegendState): HTMLElement[] {
  const { plan } = state;
  const keys = [
    key('key key-depot', '', 'Depot'),
    plan === null ? key('key key-stop', '', 'Stop') : null,
    plan !== null && plan.unserved.length > 0 ? key('key key-unserved', '×', 'Unserved stop') : null,
    ...(plan !== null && state.dispatched ? [key('key key-mark', '✓', 'Done'), key('key key-mark key-failed', '✗', 'Failed')] : []),
    plan !== null && state.late ? key('key key-late', '!', 'Running late') : null,
    state.positions ? key('key key-position', '', 'Driver’s last position') : null,
  ];
  const routes = (plan?.routes ?? []).map((route, position) => {
    const id = `legend-route-${route.vehicle_index}`;
    const box = h('input', { type: 'checkbox', id, class: 'route-toggle' });
    box.checked = !state.hidden.has(route.vehicle_index);
    box.addEventListener('change', () => state.onToggle(route.vehicle_index, box.checked));
    return h(
      'li',
      { class: 'legend-route' },
      box,
      h(
        'label',
        { for: id },
        h('span', { class: 'key key-line', style: `--route:${routeColor(position)}`, 'aria-hidden': 'true' }),
        h('strong', {}, `${position + 1}. ${route.vehicle}`),
        ` — ${plural(stopVisits(route).length, 'stop')}, ${formatDistance(route.distance_m)}`,
      ),
    );
  });
  // One list, as before the toggles: the marks' keys, then a checkbox per route.
  const parts: HTMLElement[] = [h('h3', { class: 'visually-hidden' }, 'Legend'), h('ul', { class: 'legend-list' }, ...keys, ...routes)];
  const straight = straightRoutes(plan);
  if (straight.length > 0) {
    parts.push(
      h('p', { class: 'legend-hint' }, `Drawn in straight lines: the routing service gave no road shape for ${straight.join(', ')}.`),
    );
  }
  return parts;
}

/** The routes the plan's warnings say have no road shape (routes[i].geometry), by number and driver. */
function straightRoutes(plan: Plan | null): string[] {
  return (plan?.warnings ?? []).flatMap((warning) => {
    const match = /^routes\[(\d+)\]\.geometry$/.exec(warning.path);
    const route = match ? plan?.routes[Number(match[1])] : undefined;
    return route ? [`${Number(match![1]) + 1}. ${route.vehicle}`] : [];
  });
}

function key(className: string, glyph: string, text: string): HTMLLIElement {
  return h('li', {}, h('span', { class: className, 'aria-hidden': 'true' }, glyph), text);
}
