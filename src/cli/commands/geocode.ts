/**
 * `routeplan geocode <file> -o <out>`: a copy of the problem with `coords` filled in for every place
 * given by its address only, in the input's own format (YAML keeps its comments); never the input
 * itself. Prints what became of each address; exit 2 when some found nothing (unless
 * --allow-unresolved), with the others' coordinates written all the same.
 */
import { realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { parseDocument } from 'yaml';
import { InputError } from '../../errors.js';
import { createGeocoder, geocodeAddresses, normalizeAddress, type GeocodeResult } from '../../geocode/index.js';
import { addressOnlyLocations, validateProblemFile } from '../../input/index.js';
import { resolveConfig } from '../../config/config.js';
import { addTravelOptions, loadOptions, parseTravelFlags, type TravelFlags } from '../options.js';
import { colorEnabled, printWarnings, runCommand } from '../present.js';

interface GeocodeFlags extends TravelFlags {
  output?: string;
  allowUnresolved?: boolean;
  json?: boolean;
  color?: boolean;
}

export function registerGeocode(program: Command): void {
  const command = program
    .command('geocode')
    .description('write a copy of a problem with coords filled in for every address without them')
    .argument('<file>', 'problem file (.json, .yaml or .yml)')
    .requiredOption('-o, --output <file>', 'where to write the copy (never the input itself)')
    .option('--allow-unresolved', 'exit 0 even when some addresses found nothing (they stay without coords)')
    .option('--json', 'print what became of each address as JSON')
    .option('--no-color', 'no colour in the output')
    .action(async (file: string, flags: GeocodeFlags) => {
      const color = colorEnabled(flags);
      await runCommand({ json: flags.json === true, color }, () => geocodeCommand(file, flags));
    });
  addTravelOptions(command);
}

async function geocodeCommand(file: string, flags: GeocodeFlags): Promise<number> {
  const output = flags.output!;
  refuseOverwrite(file, output);
  const format = formatOf(file);
  if (formatOf(output) !== format) throw usage('--output', `write the copy in the input's format (${format}): name it ${extname(file)}`);
  const options = loadOptions(undefined, resolveConfig(parseTravelFlags(flags)));
  if (!options.geocoder)
    throw usage('--geocoder', 'geocode needs a geocoder: --gazetteer <file.csv>, or --geocoder nominatim --geocoder-url <url>');
  const validated = await validateProblemFile(file, options);
  if (validated.kind === 'benchmark') throw usage(file, 'benchmark instances have no addresses');
  const text = await readFile(file, 'utf8');
  const raw =
    format === 'json'
      ? (JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>)
      : (parseDocument(text).toJS() as Record<string, unknown>);
  refuseCsvTables(raw);
  const places = addressOnlyLocations(raw, validated.kind);
  const geocoder = await createGeocoder(options.geocoder);
  const results = await geocodeAddresses(
    geocoder,
    options.geocoder,
    places.map((place) => place.address),
    [],
  );
  const outcome = places.map((place) => ({ ...place, result: results.get(normalizeAddress(place.address))! }));
  await writeFile(output, format === 'json' ? jsonWithCoords(raw, outcome, validated.kind) : yamlWithCoords(text, outcome, validated.kind));
  printWarnings(validated.warnings, { quiet: false, color: false });
  process.stdout.write(flags.json ? `${JSON.stringify(outcome.map(report), null, 2)}\n` : reportTable(outcome));
  const unresolved = outcome.filter((entry) => !entry.result.point).length;
  if (unresolved > 0 && !flags.allowUnresolved) {
    throw new InputError(
      `${unresolved} of ${outcome.length} addresses found nothing; ${output} has the others' coordinates (--allow-unresolved to accept)`,
      outcome
        .filter((entry) => !entry.result.point)
        .map((entry) => ({ path: pathText(entry.parts), message: entry.result.message ?? 'not found' })),
      'geocoding_failed',
    );
  }
  return 0;
}

type Placed = { parts: PropertyKey[]; address: string; result: GeocodeResult };

function refuseOverwrite(input: string, output: string): void {
  const same = resolve(input) === resolve(output) || (exists(output) && realpathSync(output) === realpathSync(input));
  if (same) throw usage('--output', 'geocode never writes over its input: give another file');
}

function exists(path: string): boolean {
  try {
    realpathSync(path);
    return true;
  } catch {
    return false;
  }
}

function formatOf(path: string): 'json' | 'yaml' {
  const extension = extname(path).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.yaml' || extension === '.yml') return 'yaml';
  throw usage(path, 'geocode reads and writes .json, .yaml or .yml problem files');
}

function refuseCsvTables(raw: Record<string, unknown>): void {
  const table = ['stops', 'drivers', 'ordersData', 'routesData'].find((key) => typeof raw[key] === 'string');
  if (table) throw usage(table, `${table} comes from a CSV table: add lat and lng columns to it, or inline the entries, then geocode`);
}

/** Where the coordinates go: a project location's `coords`, a one-off entry's latitude/longitude. */
function coordinateFields(kind: 'project' | 'oneoff', point: { lat: number; lng: number }): Record<string, unknown> {
  return kind === 'project' ? { coords: { lat: point.lat, lng: point.lng } } : { latitude: point.lat, longitude: point.lng };
}

function jsonWithCoords(raw: Record<string, unknown>, outcome: Placed[], kind: 'project' | 'oneoff'): string {
  for (const { parts, result } of outcome) {
    if (!result.point) continue;
    const target = parts.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown>)[key], raw) as Record<string, unknown>;
    Object.assign(target, coordinateFields(kind, result.point));
  }
  return `${JSON.stringify(raw, null, 2)}\n`;
}

/** Through the YAML document model, so that comments and the user's layout stay where they were. */
function yamlWithCoords(text: string, outcome: Placed[], kind: 'project' | 'oneoff'): string {
  const document = parseDocument(text);
  for (const { parts, result } of outcome) {
    if (!result.point) continue;
    for (const [key, value] of Object.entries(coordinateFields(kind, result.point))) {
      document.setIn([...parts, key], document.createNode(value, { flow: true }));
    }
  }
  return String(document);
}

function report(entry: Placed): Record<string, unknown> {
  const { result } = entry;
  return {
    path: pathText(entry.parts),
    address: entry.address,
    ...(result.point ? { lat: result.point.lat, lng: result.point.lng, label: result.point.label } : {}),
    status: result.problem ?? 'found',
    ...(result.message ? { message: result.message } : {}),
  };
}

function reportTable(outcome: Placed[]): string {
  const lines = outcome.map((entry) => {
    const where = entry.result.point ? `${entry.result.point.lat.toFixed(5)}, ${entry.result.point.lng.toFixed(5)}` : '—';
    return `${pathText(entry.parts)}\t${entry.address}\t${where}\t${entry.result.problem ? (entry.result.message ?? entry.result.problem) : 'found'}`;
  });
  const found = outcome.filter((entry) => entry.result.point).length;
  return `${['path\taddress\tcoordinates\tresult', ...lines].join('\n')}\n${found} of ${outcome.length} addresses placed.\n`;
}

function pathText(parts: PropertyKey[]): string {
  return parts.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
}

function usage(path: string, message: string): InputError {
  return new InputError(message, [{ path, message }]);
}
