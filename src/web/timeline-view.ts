/**
 * The drivers' days on one time axis (SVG): per driver a row of bars for driving, waiting,
 * service and breaks. Each kind has its own shape (height, hatching), not only its own colour,
 * and every bar has a title; the itineraries say the same in words.
 */
import type { Plan, PlanRoute } from '../output/plan-types.js';
import { timelineBars, timelineSpan, type TimelineBar, type TimelineKind } from '../output/timeline.js';
import { routeColor } from '../output/palette.js';
import { formatDuration } from '../output/format.js';
import { formatClock as clockText } from '../model/time.js';
import { h, svg } from './dom.js';
import { enableTimelineDrag, type TimelineDrop } from './timeline-drag.js';

const WIDTH = 1000;
const LABEL = 130;
const ROW = 30;
const AXIS = 26;

const KIND_LABEL: Record<TimelineKind, string> = { driving: 'Driving', waiting: 'Waiting', service: 'Service', break: 'Break' };

/** With `onStopDrop`, a stop's service bar can be dragged to another time or driver (timeline-drag.ts). */
export function timelineView(plan: Plan, onStopDrop?: TimelineDrop): HTMLElement {
  const span = timelineSpan(plan);
  if (span === null) return h('p', { class: 'muted' }, 'No routes to show.');
  const from = Math.floor(span.from_s / 3600) * 3600;
  const to = Math.max(Math.ceil(span.to_s / 3600) * 3600, from + 3600);
  const x = (seconds: number): number => LABEL + ((seconds - from) / (to - from)) * (WIDTH - LABEL - 24);
  const height = AXIS + plan.routes.length * ROW + 4;
  const chart = svg(
    'svg',
    {
      viewBox: `0 0 ${WIDTH} ${height}`,
      class: 'timeline-chart',
      role: 'img',
      'aria-label': `Timeline of the drivers' days, ${clockText(from)} to ${clockText(to)}`,
    },
    patterns(),
    axis(from, to, x, height),
    ...plan.routes.map((route, position) => {
      const y = AXIS + position * ROW;
      return svg(
        'g',
        { class: 'timeline-row' },
        svg('text', { x: 4, y: y + ROW / 2 + 4, class: 'timeline-label' }, `${position + 1}. ${route.vehicle}`),
        svg('line', { x1: x(route.start.time_s), x2: x(route.end.time_s), y1: y + ROW / 2, y2: y + ROW / 2, class: 'timeline-shift' }),
        ...timelineBars(route).map((entry) => barShape(entry, x, y, routeColor(position), route.vehicle, stopIndexOf(route, entry))),
      );
    }),
  );
  if (onStopDrop) {
    const secondsAt = (px: number): number => from + ((px - LABEL) / (WIDTH - LABEL - 24)) * (to - from);
    const routeAt = (py: number): number => {
      const row = Math.floor((py - AXIS) / ROW);
      return row >= 0 && row < plan.routes.length ? row : -1;
    };
    enableTimelineDrag(chart, plan, { secondsAt, routeAt }, onStopDrop);
    chart.classList.add('editable');
  }
  // Wider than a phone: a region that scrolls must be reachable from the keyboard (WCAG 2.1.1).
  const scroller = h('div', { class: 'timeline-scroll', tabindex: '0', role: 'region', 'aria-label': 'Timeline of the routes' }, chart);
  return h('div', {}, scroller, timelineKey());
}

/** The stop a service bar serves (its index in the project), so that the bar can be dragged; null for other bars. */
function stopIndexOf(route: PlanRoute, entry: TimelineBar): number | null {
  if (entry.kind !== 'service') return null;
  const visit = route.visits.find((v) => v.kind === 'stop' && v.stop === entry.stop && v.start_s === entry.from_s);
  return visit?.kind === 'stop' ? visit.stop_index : null;
}

function barShape(
  entry: TimelineBar,
  x: (seconds: number) => number,
  y: number,
  color: string,
  vehicle: string,
  stopIndex: number | null,
): SVGElement {
  const [top, height] = entry.kind === 'driving' ? [y + 11, 8] : [y + 5, ROW - 10];
  const fill = { driving: color, service: color, waiting: 'url(#tl-waiting)', break: 'url(#tl-break)' }[entry.kind];
  const label = `${vehicle}: ${KIND_LABEL[entry.kind].toLowerCase()}${entry.stop ? ` (${entry.stop})` : ''} ${clockText(entry.from_s)}–${clockText(entry.to_s)}, ${formatDuration(entry.to_s - entry.from_s)}`;
  return svg(
    'rect',
    {
      x: x(entry.from_s),
      y: top,
      width: Math.max(x(entry.to_s) - x(entry.from_s), 1),
      height,
      fill,
      class: `bar bar-${entry.kind}`,
      stroke: entry.kind === 'service' ? '#0f172a' : 'none',
      'stroke-width': entry.kind === 'service' ? 0.6 : 0,
      rx: 2,
      'data-stop-index': stopIndex ?? undefined,
    },
    svg('title', {}, label),
  );
}

function axis(from: number, to: number, x: (seconds: number) => number, height: number): SVGElement {
  const ticks: SVGElement[] = [];
  const step = to - from > 12 * 3600 ? 2 * 3600 : 3600;
  for (let t = from; t <= to; t += step) {
    ticks.push(svg('line', { x1: x(t), x2: x(t), y1: AXIS - 6, y2: height, class: 'timeline-grid' }));
    ticks.push(svg('text', { x: x(t), y: AXIS - 10, class: 'timeline-tick', 'text-anchor': 'middle' }, clockText(t)));
  }
  return svg('g', { 'aria-hidden': 'true' }, ...ticks);
}

function patterns(): SVGElement {
  return svg(
    'defs',
    {},
    svg(
      'pattern',
      { id: 'tl-waiting', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
      svg('rect', { width: 6, height: 6, fill: '#f1f5f9' }),
      svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#94a3b8', 'stroke-width': 2 }),
    ),
    svg(
      'pattern',
      { id: 'tl-break', width: 8, height: 8, patternUnits: 'userSpaceOnUse' },
      svg('rect', { width: 8, height: 8, fill: '#fde68a' }),
      svg('circle', { cx: 4, cy: 4, r: 1.6, fill: '#92400e' }),
    ),
  );
}

function timelineKey(): HTMLElement {
  const kinds: TimelineKind[] = ['driving', 'service', 'waiting', 'break'];
  return h(
    'ul',
    { class: 'timeline-key' },
    ...kinds.map((kind) => h('li', {}, h('span', { class: `swatch swatch-${kind}`, 'aria-hidden': 'true' }), KIND_LABEL[kind])),
  );
}
