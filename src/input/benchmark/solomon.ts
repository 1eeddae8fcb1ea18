/**
 * Solomon / Gehring–Homberger VRPTW text: a name line, a VEHICLE block (`NUMBER CAPACITY`) and a
 * CUSTOMER block of `CUST XCOORD YCOORD DEMAND READY DUE SERVICE` rows, node 0 being the depot.
 */
import type { BenchmarkInstance, BenchmarkNode } from './instance.js';
import { isNumberToken, lineError, numbersOn, splitLines, tokensOf, type TextLine } from './text-lines.js';

const CUSTOMER_FIELDS = ['CUST NO.', 'XCOORD.', 'YCOORD.', 'DEMAND', 'READY TIME', 'DUE DATE', 'SERVICE TIME'];

export function parseSolomon(text: string, name: string): BenchmarkInstance {
  const lines = splitLines(text);
  const vehicleAt = findKeywordLine(lines, 'VEHICLE', name);
  const customerAt = findKeywordLine(lines, 'CUSTOMER', name);
  if (customerAt < vehicleAt) {
    throw lineError(name, lines[customerAt]!, 'the CUSTOMER block must follow the VEHICLE block');
  }
  const fleet = parseVehicleBlock(lines.slice(vehicleAt + 1, customerAt), name, lines[vehicleAt]!);
  const rows = parseCustomerRows(lines.slice(customerAt + 1), name);
  const depotRow = rows[0];
  if (depotRow === undefined) {
    throw lineError(name, lines[customerAt]!, 'the CUSTOMER block has no rows (row 0, the depot, is required)');
  }
  if (depotRow.values[0] !== 0) {
    throw lineError(name, depotRow.line, `the first CUSTOMER row must be the depot, number 0; found ${depotRow.values[0]}`);
  }
  if (rows.length < 2) {
    throw lineError(name, depotRow.line, 'the instance has a depot but no customers');
  }
  const [, depotX, depotY, , depotReady, depotDue] = depotRow.values as [number, number, number, number, number, number, number];
  if (depotDue < depotReady) {
    throw lineError(name, depotRow.line, `the depot's DUE DATE ${depotDue} is before its READY TIME ${depotReady}`);
  }
  const customers = rows.slice(1).map((row, i) => customerFromRow(row, i + 1, name));
  return {
    name,
    rounding: 'trunc1',
    fleetSize: fleet.number,
    capacity: fleet.capacity,
    depot: { x: depotX, y: depotY, ready: depotReady, due: depotDue, line: depotRow.line.number },
    customers,
  };
}

function findKeywordLine(lines: TextLine[], keyword: string, name: string): number {
  const at = lines.findIndex((line) => line.text.toUpperCase() === keyword);
  if (at < 0) {
    const last = lines.length;
    throw lineError(name, last, `no ${keyword} line found (Solomon format needs VEHICLE and CUSTOMER blocks)`);
  }
  return at;
}

function parseVehicleBlock(block: TextLine[], name: string, keywordLine: TextLine): { number: number; capacity: number } {
  const filled = block.filter((line) => line.text.length > 0);
  const valueLines = filled.filter((line) => !isHeaderLine(line));
  const first = valueLines[0];
  if (first === undefined) {
    throw lineError(name, keywordLine, 'the VEHICLE block has no "NUMBER CAPACITY" values');
  }
  if (valueLines.length > 1) {
    throw lineError(name, valueLines[1]!, 'unexpected extra line in the VEHICLE block');
  }
  const [number, capacity] = numbersOn(name, first, ['NUMBER', 'CAPACITY']) as [number, number];
  if (!Number.isInteger(number) || number < 1) {
    throw lineError(name, first, `vehicle NUMBER must be a positive integer, found ${number}`);
  }
  if (!(capacity > 0)) {
    throw lineError(name, first, `vehicle CAPACITY must be positive, found ${capacity}`);
  }
  return { number, capacity };
}

/** A header line is one whose first token is a word (`NUMBER`, `CUST`), not a value row. */
function isHeaderLine(line: TextLine): boolean {
  const first = tokensOf(line)[0];
  return first !== undefined && !isNumberToken(first);
}

interface CustomerRow {
  line: TextLine;
  values: number[];
}

function parseCustomerRows(block: TextLine[], name: string): CustomerRow[] {
  const filled = block.filter((line) => line.text.length > 0);
  const rows = filled[0] !== undefined && isHeaderLine(filled[0]) ? filled.slice(1) : filled;
  return rows.map((line) => ({ line, values: numbersOn(name, line, CUSTOMER_FIELDS) }));
}

function customerFromRow(row: CustomerRow, expectedNumber: number, name: string): BenchmarkNode {
  const [number, x, y, demand, ready, due, service] = row.values as [number, number, number, number, number, number, number];
  if (number !== expectedNumber) {
    throw lineError(name, row.line, `customer numbers must run 0, 1, 2, … in order; expected ${expectedNumber}, found ${number}`);
  }
  if (demand < 0) throw lineError(name, row.line, `customer ${number}: DEMAND must not be negative, found ${demand}`);
  if (service < 0) throw lineError(name, row.line, `customer ${number}: SERVICE TIME must not be negative, found ${service}`);
  if (due < ready) {
    throw lineError(name, row.line, `customer ${number}: DUE DATE ${due} is before READY TIME ${ready}`);
  }
  return { customer: number, x, y, demand, ready, due, service, line: row.line.number };
}
