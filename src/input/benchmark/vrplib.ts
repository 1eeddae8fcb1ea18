/**
 * CVRPLIB / TSPLIB text (the X set): `KEY : VALUE` specification lines, then NODE_COORD_SECTION,
 * DEMAND_SECTION and DEPOT_SECTION (ids ended by -1), then EOF. Only CVRP with EUC_2D distances and a
 * single depot is supported.
 */
import type { BenchmarkInstance, BenchmarkNode } from './instance.js';
import { lineError, numbersOn, splitLines, type TextLine } from './text-lines.js';

const SECTIONS = new Set(['NODE_COORD_SECTION', 'DEMAND_SECTION', 'DEPOT_SECTION']);

interface ParsedSections {
  spec: Map<string, { value: string; line: TextLine }>;
  coords: Map<number, { x: number; y: number; line: TextLine }>;
  demands: Map<number, { demand: number; line: TextLine }>;
  depots: { id: number; line: TextLine }[];
  lastLine: number;
}

export function parseVrplib(text: string, name: string): BenchmarkInstance {
  const parsed = readSections(splitLines(text), name);
  const dimension = requireInteger(parsed, 'DIMENSION', name, 2);
  const capacity = requirePositiveNumber(parsed, 'CAPACITY', name);
  checkSupportedType(parsed, name);
  const depotId = singleDepot(parsed, name, dimension);
  checkNodeIds(parsed, name, dimension);
  const depotCoord = parsed.coords.get(depotId)!;
  const customers: BenchmarkNode[] = [];
  for (let id = 1; id <= dimension; id++) {
    if (id === depotId) continue;
    const coord = parsed.coords.get(id)!;
    const demand = parsed.demands.get(id)!;
    customers.push({
      customer: customers.length + 1,
      x: coord.x,
      y: coord.y,
      demand: demand.demand,
      ready: 0,
      due: Infinity,
      service: 0,
      line: coord.line.number,
    });
  }
  return {
    name,
    rounding: 'round',
    // The X set's fleet is unlimited (the k in the name is a lower bound). One vehicle per
    // customer is an upper bound no solution can exceed, so it never constrains the search.
    fleetSize: customers.length,
    capacity,
    depot: { x: depotCoord.x, y: depotCoord.y, ready: null, due: Infinity, line: depotCoord.line.number },
    customers,
  };
}

function readSections(lines: TextLine[], name: string): ParsedSections {
  const parsed: ParsedSections = { spec: new Map(), coords: new Map(), demands: new Map(), depots: [], lastLine: lines.length };
  let section: string | null = null;
  let depotListEnded = false;
  for (const line of lines) {
    if (line.text.length === 0) continue;
    const keyword = line.text.split(/[\s:]+/)[0]!.toUpperCase();
    if (keyword === 'EOF') break;
    if (keyword.endsWith('_SECTION')) {
      if (!SECTIONS.has(keyword))
        throw lineError(name, line, `unsupported section ${keyword} (only NODE_COORD_SECTION, DEMAND_SECTION and DEPOT_SECTION are read)`);
      section = keyword;
      continue;
    }
    if (section === null || /^[A-Za-z_]+\s*:/.test(line.text)) {
      readSpecLine(parsed, line, name);
      section = null;
      continue;
    }
    if (section === 'NODE_COORD_SECTION') {
      const [id, x, y] = numbersOn(name, line, ['node id', 'x', 'y']) as [number, number, number];
      addUnique(parsed.coords, nodeId(id, line, name), { x, y, line }, line, name, 'NODE_COORD_SECTION');
    } else if (section === 'DEMAND_SECTION') {
      const [id, demand] = numbersOn(name, line, ['node id', 'demand']) as [number, number];
      if (demand < 0) throw lineError(name, line, `demand of node ${id} must not be negative, found ${demand}`);
      addUnique(parsed.demands, nodeId(id, line, name), { demand, line }, line, name, 'DEMAND_SECTION');
    } else {
      if (depotListEnded) throw lineError(name, line, 'unexpected line after the -1 that ends DEPOT_SECTION');
      const [id] = numbersOn(name, line, ['depot node id']) as [number];
      if (id === -1) depotListEnded = true;
      else parsed.depots.push({ id: nodeId(id, line, name), line });
    }
  }
  return parsed;
}

function readSpecLine(parsed: ParsedSections, line: TextLine, name: string): void {
  const match = /^([A-Za-z_]+)\s*:\s*(.*)$/.exec(line.text);
  if (match === null) throw lineError(name, line, `expected "KEY : VALUE" or a section name, found "${line.text}"`);
  const key = match[1]!.toUpperCase();
  if (parsed.spec.has(key)) throw lineError(name, line, `${key} is given twice`);
  parsed.spec.set(key, { value: match[2]!.trim(), line });
}

function nodeId(id: number, line: TextLine, name: string): number {
  if (!Number.isInteger(id) || id < 1) throw lineError(name, line, `node id must be a positive integer, found ${id}`);
  return id;
}

function addUnique<T>(map: Map<number, T>, id: number, value: T, line: TextLine, name: string, section: string): void {
  if (map.has(id)) throw lineError(name, line, `node ${id} appears twice in ${section}`);
  map.set(id, value);
}

function requireSpec(parsed: ParsedSections, key: string, name: string): { value: string; line: TextLine } {
  const entry = parsed.spec.get(key);
  if (entry === undefined) throw lineError(name, parsed.lastLine, `the ${key} specification line is missing`);
  return entry;
}

function requireInteger(parsed: ParsedSections, key: string, name: string, min: number): number {
  const entry = requireSpec(parsed, key, name);
  const value = Number(entry.value);
  if (entry.value === '' || !Number.isInteger(value) || value < min) {
    throw lineError(name, entry.line, `${key} must be an integer ≥ ${min}, found "${entry.value}"`);
  }
  return value;
}

function requirePositiveNumber(parsed: ParsedSections, key: string, name: string): number {
  const entry = requireSpec(parsed, key, name);
  const value = Number(entry.value);
  if (entry.value === '' || !Number.isFinite(value) || value <= 0) {
    throw lineError(name, entry.line, `${key} must be a positive number, found "${entry.value}"`);
  }
  return value;
}

function checkSupportedType(parsed: ParsedSections, name: string): void {
  const type = parsed.spec.get('TYPE');
  if (type !== undefined && type.value.toUpperCase() !== 'CVRP') {
    throw lineError(name, type.line, `unsupported TYPE "${type.value}" (only CVRP)`);
  }
  const weights = requireSpec(parsed, 'EDGE_WEIGHT_TYPE', name);
  if (weights.value.toUpperCase() !== 'EUC_2D') {
    throw lineError(name, weights.line, `unsupported EDGE_WEIGHT_TYPE "${weights.value}" (only EUC_2D)`);
  }
}

function singleDepot(parsed: ParsedSections, name: string, dimension: number): number {
  const [first, second] = parsed.depots;
  if (first === undefined) throw lineError(name, parsed.lastLine, 'DEPOT_SECTION is missing or lists no depot');
  if (second !== undefined) throw lineError(name, second.line, 'only one depot is supported');
  if (first.id > dimension) throw lineError(name, first.line, `depot ${first.id} is beyond DIMENSION ${dimension}`);
  return first.id;
}

function checkNodeIds(parsed: ParsedSections, name: string, dimension: number): void {
  for (const [label, map] of [
    ['NODE_COORD_SECTION', parsed.coords],
    ['DEMAND_SECTION', parsed.demands],
  ] as const) {
    for (const [id, entry] of map) {
      if (id > dimension) throw lineError(name, entry.line, `node ${id} in ${label} is beyond DIMENSION ${dimension}`);
    }
    if (map.size !== dimension) {
      const missing = firstMissing(map, dimension);
      throw lineError(name, parsed.lastLine, `${label} lacks node ${missing} (DIMENSION is ${dimension})`);
    }
  }
}

function firstMissing(map: Map<number, unknown>, dimension: number): number {
  for (let id = 1; id <= dimension; id++) if (!map.has(id)) return id;
  return dimension + 1;
}
