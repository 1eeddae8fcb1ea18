/**
 * One driver's route as CSV (RFC 4180: comma-separated, CRLF, quoted where needed) for a
 * dispatcher's spreadsheet: the stops in order with their times, address, phone and notes.
 * Built from the plan alone, like the tables; the address comes from the caller, since a
 * plan carries coordinates, not the addresses the stops were given with.
 */
import type { PlanRoute, PlanStopVisit } from './plan-types.js';
import { formatDuration, formatLoad, formatTime } from './format.js';

const DISPLAY = { raw: false };

export const ROUTE_CSV_HEADER = ['order', 'stop', 'address', 'arrival', 'start', 'finish', 'load after', 'lateness', 'phone', 'notes'];

/** `addressOf(stop_index)`: where the stop is, as the caller knows it (its address, or '' when it has none). */
export function routeCsv(route: PlanRoute, addressOf: (stopIndex: number) => string): string {
  const rows: string[][] = [ROUTE_CSV_HEADER];
  let order = 0;
  for (const visit of route.visits) {
    if (visit.kind === 'stop') {
      order += 1;
      rows.push(stopRow(visit, order, addressOf(visit.stop_index)));
    } else {
      rows.push([
        '',
        'break',
        '',
        '',
        formatTime(visit.start, visit.start_s, DISPLAY),
        formatTime(visit.finish, visit.finish_s, DISPLAY),
        '',
        '',
        '',
        '',
      ]);
    }
  }
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function stopRow(visit: PlanStopVisit, order: number, address: string): string[] {
  return [
    String(order),
    visit.stop,
    address,
    formatTime(visit.arrival, visit.arrival_s, DISPLAY),
    formatTime(visit.start, visit.start_s, DISPLAY),
    formatTime(visit.finish, visit.finish_s, DISPLAY),
    formatLoad(visit.load_after),
    visit.late_s > 0 ? formatDuration(visit.late_s) : '',
    textField(visit.phone_number),
    textField(visit.notes),
  ];
}

function textField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Quotes a field that holds a separator, a quote or a line break. A field a spreadsheet would run
 * as a formula (=, @, or a leading tab or CR) gets a leading apostrophe: notes come from customers.
 * A leading + stays, since phone numbers start with it.
 */
export function csvField(value: string): string {
  const safe = /^[=@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
