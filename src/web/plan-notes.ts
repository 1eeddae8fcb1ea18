/**
 * What the page says about a plan beside its figures: what changed against the plan before it
 * (`changes`), the rules a plan adjusted by hand breaks (each next to its stop or route, and all
 * in a summary), and a stop's lock. Each in words with an icon, never by colour alone.
 */
import { formatDistance, formatDuration, plural } from '../output/format.js';
import type { PlanChanges, PlanFigureChange } from '../output/plan-types.js';
import { h, hiddenText, svg } from './dom.js';
import type { PlanViolation, ProjectStop } from './types.js';

/** "What changed" above a plan that has a plan before it. */
export function changesView(changes: PlanChanges): HTMLElement {
  const moved = changes.driver_changed.map((entry) => `${entry.stop} (${entry.from} → ${entry.to})`);
  const lines: [string, string[]][] = [
    ['Changed driver', moved],
    ['Added', changes.added.map((entry) => `${entry.stop} (${entry.driver})`)],
    ['Removed or unserved', changes.removed.map((entry) => `${entry.stop} (was ${entry.driver})`)],
  ];
  const shown = lines.filter(([, stops]) => stops.length > 0);
  return h(
    'section',
    { class: 'plan-changes', 'aria-labelledby': 'changes-title' },
    h('h3', { id: 'changes-title' }, 'What changed since the plan before'),
    h(
      'dl',
      { class: 'changes-list' },
      ...(shown.length === 0 ? [h('div', {}, h('dt', {}, 'Stops'), h('dd', {}, 'No stop changed driver, was added or removed.'))] : []),
      ...shown.map(([name, stops]) => h('div', {}, h('dt', {}, `${name} (${stops.length})`), h('dd', {}, stops.join(', ')))),
      h('div', {}, h('dt', {}, 'Working time'), h('dd', {}, figureChange(changes.working_s, formatDuration))),
      h('div', {}, h('dt', {}, 'Distance'), h('dd', {}, figureChange(changes.distance_m, formatDistance))),
    ),
  );
}

function figureChange(change: PlanFigureChange, format: (value: number) => string): string {
  if (change.delta === 0) return `unchanged (${format(change.after)})`;
  const direction = change.delta > 0 ? 'up' : 'down';
  return `${direction} ${format(Math.abs(change.delta))}, ${format(change.before)} → ${format(change.after)}`;
}

/** A draft's violations in one list, or that it breaks no rule. */
export function violationsSummary(violations: PlanViolation[]): HTMLElement {
  if (violations.length === 0) return h('p', { class: 'draft-ok' }, h('span', { 'aria-hidden': 'true' }, '✓ '), 'No rule broken.');
  return h(
    'div',
    {},
    h('p', { class: 'draft-count' }, h('span', { 'aria-hidden': 'true' }, '⚠ '), `${plural(violations.length, 'violation')}:`),
    h(
      'ul',
      { class: 'violations' },
      ...violations.map((violation) => h('li', {}, `${violation.stop ?? violation.driver}: ${violationText(violation)}`)),
    ),
  );
}

/** The violations of one stop, under its name. */
export function stopViolations(violations: PlanViolation[], stopIndex: number): HTMLElement | null {
  const own = violations.filter((violation) => violation.stop_index === stopIndex);
  return own.length === 0 ? null : violationList(own);
}

/** The violations of a route itself (overtime, overload), under its figures. */
export function routeViolations(violations: PlanViolation[], vehicleIndex: number): HTMLElement | null {
  const own = violations.filter((violation) => violation.vehicle_index === vehicleIndex && violation.stop_index === undefined);
  return own.length === 0 ? null : violationList(own);
}

function violationList(violations: PlanViolation[]): HTMLElement {
  return h(
    'ul',
    { class: 'violations inline' },
    ...violations.map((violation) =>
      h('li', {}, h('span', { 'aria-hidden': 'true' }, '⚠ '), hiddenText('Violation: '), violationText(violation)),
    ),
  );
}

function violationText(violation: PlanViolation): string {
  return violation.permitted ? `${violation.message} (within what the project permits)` : violation.message;
}

/** "Locked: Ana #2" with a padlock for a locked stop (its driver, and its place when it has one); null for another. */
export function lockBadge(stop: ProjectStop | undefined): HTMLElement | null {
  if (stop?.driver === undefined) return null;
  const place = stop.sequence !== undefined ? ` #${stop.sequence}` : '';
  return h(
    'span',
    { class: 'lock-badge', title: `Locked to ${stop.driver}${place ? `, number ${stop.sequence}` : ''}` },
    lockIcon(),
    `Locked: ${stop.driver}${place}`,
  );
}

/** A padlock drawn in SVG (no emoji font is needed), beside words that say the same. */
export function lockIcon(): SVGElement {
  return svg(
    'svg',
    { class: 'lock-icon', viewBox: '0 0 12 14', width: 11, height: 13, 'aria-hidden': 'true', focusable: 'false' },
    svg('path', { d: 'M3 6V4a3 3 0 0 1 6 0v2', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
    svg('rect', { x: 1, y: 6, width: 10, height: 7.5, rx: 1.5, fill: 'currentColor' }),
  );
}
