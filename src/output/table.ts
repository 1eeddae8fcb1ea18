/** Human-readable plan: a summary, one table per route, a table of unserved stops. */
import Table from 'cli-table3';
import type { Plan, PlanBreakVisit, PlanRoute, PlanStopVisit } from './plan-types.js';
import {
  LATE_COLUMN,
  breakCells,
  formatDistance,
  formatDuration,
  formatLoad,
  formatTime,
  isOverloaded,
  stopCells,
  summaryLines,
} from './format.js';
import type { UnitDisplay } from './format.js';
import { makeStyle, terminalSafe } from './style.js';
import { stopVisits } from './visits.js';
import type { Style } from './style.js';

export interface RenderOptions {
  color: boolean;
  /**
   * Benchmark plans carry times and distances in the instance's own units: show them as
   * plain numbers instead of clock times and kilometres. Default false.
   */
  rawUnits?: boolean;
}

const ROUTE_HEAD = ['#', 'Stop', 'Arrival', 'Start', 'Finish', 'Load after', 'Late'];
const UNSERVED_HEAD = ['Stop', 'Reason', 'Message', 'Would fit if'];
/** Long unserved messages wrap instead of widening the table past a terminal. */
const MESSAGE_WIDTH = 60;
/** The hints, one a line, wrap the same way in a narrower column. */
const HINTS_WIDTH = 40;

/** Renders a plan from its JSON alone (so `poll` can show a remote plan the same way). */
export function renderPlanTables(given: Plan, options: RenderOptions): string {
  const plan = JSON.parse(JSON.stringify(given), (_key, value: unknown) =>
    typeof value === 'string' ? terminalSafe(value) : value,
  ) as Plan;
  const style = makeStyle(options.color);
  const display: UnitDisplay = { raw: options.rawUnits === true };
  const blocks = [renderSummary(plan, style, display)];
  plan.routes.forEach((route, position) => blocks.push(renderRoute(route, position, style, display, options.color)));
  if (plan.unserved.length > 0) blocks.push(renderUnserved(plan, style, options.color));
  return `${blocks.join('\n\n')}\n`;
}

function renderSummary(plan: Plan, style: Style, display: UnitDisplay): string {
  const [first = '', ...rest] = summaryLines(plan.summary, display);
  return [style.bold(`Plan: ${first}`), ...rest.map((line) => `      ${line}`)].join('\n');
}

function renderRoute(route: PlanRoute, position: number, style: Style, display: UnitDisplay, color: boolean): string {
  const stops = stopVisits(route).length;
  const title =
    `Route ${position + 1}: ${route.vehicle} — ${formatTime(route.start.time, route.start.time_s, display)} → ` +
    `${formatTime(route.end.time, route.end.time_s, display)}${route.end.location === null ? ' (open end)' : ''}`;
  const facts =
    `${stops} stop${stops === 1 ? '' : 's'} · distance ${formatDistance(route.distance_m, display)} · ` +
    `working ${formatDuration(route.working_s, display)} · load ${formatLoad(route.load)}` +
    (route.overtime_s > 0 ? ` · ${style.red(`overtime ${formatDuration(route.overtime_s, display)}`)}` : '') +
    (isOverloaded(route.overload) ? ` · ${style.red(`overload ${formatLoad(route.overload!)}`)}` : '');
  const table = newTable(ROUTE_HEAD, color);
  let order = 0;
  for (const visit of route.visits) {
    if (visit.kind === 'stop') {
      order += 1;
      table.push(stopRow(visit, order, style, display));
    } else {
      table.push(breakRow(visit, style, display));
    }
  }
  const lines = [style.bold(title), facts, table.toString()];
  if (route.visits.some((visit) => visit.kind === 'stop' && visit.arrival_s === null)) {
    lines.push(style.dim('— no ETA: the stop has no duration, so no arrival times are estimated'));
  }
  return lines.join('\n');
}

function stopRow(visit: PlanStopVisit, order: number, style: Style, display: UnitDisplay): string[] {
  const cells = stopCells(visit, order, display);
  if (cells[LATE_COLUMN]) cells[LATE_COLUMN] = style.red(cells[LATE_COLUMN]);
  return cells;
}

function breakRow(visit: PlanBreakVisit, style: Style, display: UnitDisplay): string[] {
  const cells = breakCells(visit, display);
  cells[1] = style.dim(cells[1]!);
  return cells;
}

function renderUnserved(plan: Plan, style: Style, color: boolean): string {
  const longest = Math.max(...plan.unserved.map((entry) => entry.message.length), UNSERVED_HEAD[2]!.length);
  const hints = plan.unserved.map((entry) => (entry.hints ?? []).map((hint) => `• ${hint.text}`));
  const widest = Math.max(UNSERVED_HEAD[3]!.length, ...hints.flat().map((line) => line.length));
  const table = newTable(UNSERVED_HEAD, color, [null, null, Math.min(MESSAGE_WIDTH, longest + 2), Math.min(HINTS_WIDTH, widest + 2)]);
  plan.unserved.forEach((entry, i) => table.push([entry.stop, entry.reason, entry.message, hints[i]!.join('\n') || style.dim('—')]));
  const count = plan.unserved.length;
  return [style.yellow(style.bold(`Unserved: ${count} stop${count === 1 ? '' : 's'}`)), table.toString()].join('\n');
}

function newTable(head: string[], color: boolean, colWidths: Array<number | null> = []): Table.Table {
  // cli-table3 colours headers red by default; colour only when asked.
  return new Table({
    head,
    style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true },
    wordWrap: true,
    colWidths,
  });
}
