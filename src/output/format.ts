/** Human formatting of plan values, shared by the tables and the HTML page. */
import type { LoadValue, PlanBreakVisit, PlanStopVisit, PlanSummary } from './plan-types.js';

/**
 * `raw` is for benchmark plans: their times and distances are in the instance's own units,
 * so they are shown as plain numbers instead of clock times, minutes and kilometres.
 */
export interface UnitDisplay {
  raw: boolean;
}

/** Up to two decimals, without trailing zeros (12, 12.5, 12.34). */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Math.round(value * 100) / 100);
}

export function formatDistance(metres: number, display: UnitDisplay = { raw: false }): string {
  if (display.raw) return formatNumber(metres);
  if (Math.abs(metres) < 1000) return `${Math.round(metres)} m`;
  return `${(metres / 1000).toFixed(1)} km`;
}

/** "0 min", "45 s", "12 min", "2 h 05 min". */
export function formatDuration(seconds: number, display: UnitDisplay = { raw: false }): string {
  if (display.raw) return formatNumber(seconds);
  if (seconds > 0 && seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${String(minutes - hours * 60).padStart(2, '0')} min`;
}

/** A time as `HH:mm`, or the raw number for benchmark plans; "—" when the plan gives none. */
export function formatTime(clock: string | null, seconds: number | null, display: UnitDisplay): string {
  if (seconds === null || clock === null) return '—';
  return display.raw ? formatNumber(seconds) : clock;
}

export function formatLoad(load: LoadValue): string {
  if (typeof load === 'number') return formatNumber(load);
  const parts = Object.entries(load).map(([name, value]) => `${name || 'load'} ${formatNumber(value)}`);
  return parts.length === 0 ? '0' : parts.join(', ');
}

/** Position of the lateness cell in a route table row (the terminal colours it, the page marks it). */
export const LATE_COLUMN = 6;

/** A route table's stop row: order, stop, arrival, start, finish, load after, lateness ('' when on time). */
export function stopCells(visit: PlanStopVisit, order: number, display: UnitDisplay): string[] {
  return [
    String(order),
    visit.stop,
    formatTime(visit.arrival, visit.arrival_s, display),
    formatTime(visit.start, visit.start_s, display),
    formatTime(visit.finish, visit.finish_s, display),
    formatLoad(visit.load_after),
    visit.late_s > 0 ? `+${formatDuration(visit.late_s, display)}` : '',
  ];
}

/** A route table's break row, in the same columns. */
export function breakCells(visit: PlanBreakVisit, display: UnitDisplay): string[] {
  return ['', '(break)', '', formatTime(visit.start, visit.start_s, display), formatTime(visit.finish, visit.finish_s, display), '', ''];
}

/** "1 stop", "3 stops": a count with its noun (nouns of the plan's vocabulary take an s). */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The plan-wide totals as three short lines. */
export function summaryLines(summary: PlanSummary, display: UnitDisplay): string[] {
  return [
    `${plural(summary.routes_used, 'route')} · ${summary.served} served · ${summary.unserved} unserved · priority served ${formatNumber(summary.priority_served)}`,
    `distance ${formatDistance(summary.distance_m, display)} · driving ${formatDuration(summary.driving_s, display)} · ` +
      `service ${formatDuration(summary.service_s, display)} · waiting ${formatDuration(summary.waiting_s, display)} · ` +
      `breaks ${formatDuration(summary.break_s, display)} · working ${formatDuration(summary.working_s, display)}`,
    `lateness ${formatDuration(summary.lateness_s, display)} · overtime ${formatDuration(summary.overtime_s, display)}` +
      (summary.overload === undefined ? '' : ` · overload ${formatLoad(summary.overload)}`),
  ];
}

/** Whether any dimension of a reported overload is above 0. */
export function isOverloaded(overload: LoadValue | undefined): boolean {
  if (overload === undefined) return false;
  return typeof overload === 'number' ? overload > 0 : Object.values(overload).some((value) => value > 0);
}
