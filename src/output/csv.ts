/**
 * One driver's route as CSV (RFC 4180: comma-separated, CRLF, quoted where needed) for a
 * dispatcher's spreadsheet: the stops in order with their times, address, phone and notes.
 * Built from the plan alone, like the tables; the address comes from the caller, since a
 * plan carries coordinates, not the addresses the stops were given with. No cell runs as a
 * formula in the spreadsheet that opens it (neutralised, below), and numbers stay numbers.
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
  return rows.map((row, index) => csvLine(row, index === 0)).join('\r\n') + '\r\n';
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

/** One CSV line: each cell made safe as its column's kind says, then quoted where needed. */
function csvLine(row: readonly string[], header: boolean): string {
  return row.map((cell, column) => quoted(!header && NUMBER_COLUMNS.has(column) ? numberCell(cell) : neutralised(cell))).join(',');
}

/**
 * The columns that hold numbers: the order and the load after the stop. A negative number there is
 * a number (a load may go below zero with pickups), which a spreadsheet reads as one and can sum;
 * an apostrophe would turn it into text. Every other column is text, whatever it looks like.
 */
const NUMBER_COLUMNS = new Set([ROUTE_CSV_HEADER.indexOf('order'), ROUTE_CSV_HEADER.indexOf('load after')]);

/** A plain decimal number, which a spreadsheet reads as a number and never as a formula: `12`, `-3`, `0.25`. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** A cell of a numeric column: a plain number stays as it is; anything else there (an object load, whose dimension names the user chose) is text. */
export function numberCell(value: string): string {
  return PLAIN_NUMBER.test(value) ? value : neutralised(value);
}

/**
 * A text cell a spreadsheet would run as a formula gets a leading apostrophe: OWASP's rule for CSV
 * injection (a leading `=`, `+`, `-`, `@`, tab or carriage return). Names, addresses, phones and
 * notes come from customers, and `+HYPERLINK(…)` or `-1+1+cmd|…` run as well as `=…`. A phone
 * number starting with `+` gets it too, which keeps it readable (`'+33 6 12 34 56 78`) where the
 * spreadsheet would otherwise make a number of it (losing the `+`) or an error.
 */
export function neutralised(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Quotes a field that holds a separator, a quote or a line break (RFC 4180). */
function quoted(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A text field as routeCsv writes it: neutralised, then quoted where needed. */
export function csvField(value: string): string {
  return quoted(neutralised(value));
}
