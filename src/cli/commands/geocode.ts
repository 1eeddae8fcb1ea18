/**
 * `routeplan geocode <file> -o <out>`: a copy of the problem with `coords` filled in for every place
 * given by its address only, in the input's own format (YAML keeps its comments); never the input
 * itself. Prints what became of each address; exit 2 when some found nothing (unless
 * --allow-unresolved), with the others' coordinates written all the same.
 */
import { realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { parseDocument } from 'yaml';
import { InputError } from '../../errors.js';
import { createGeocoder, geocodeAddresses, normalizeAddress, type GeocodeResult } from '../../geocode/index.js';
import { addressOnlyLocations, coordinateFields, validateProblemFile, withCoordinates } from '../../input/index.js';
import { addSettingOptions, commandSettings, loadOptions } from '../options.js';
import { colorEnabled, printWarnings, runCommand } from '../present.js';
import { csvTableCopies } from './geocode-csv.js';
import type { GeocoderSettings } from '../../geocode/types.js';

interface GeocodeFlags {
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
    .action(async (file: string, flags: GeocodeFlags) => {
      const color = colorEnabled(flags);
      await runCommand({ json: flags.json === true, color }, () => geocodeCommand(file, flags));
    });
  addSettingOptions(command, 'geocode');
}

async function geocodeCommand(file: string, flags: GeocodeFlags): Promise<number> {
  const output = flags.output!;
  refuseOverwrite(file, output);
  const format = formatOf(file);
  if (formatOf(output) !== format) throw usage('--output', `write the copy in the input's format (${format}): name it ${extname(file)}`);
  const options = loadOptions(undefined, commandSettings('geocode', { ...flags }));
  if (!options.geocoder) {
    throw usage('--geocoder', 'geocode needs a geocoder: --gazetteer <file.csv>, or --geocoder nominatim --geocoder-url <url>');
  }
  const validated = await validateProblemFile(file, options);
  if (validated.kind === 'benchmark') throw usage(file, 'benchmark instances have no addresses');
  const text = await readFile(file, 'utf8');
  const raw = (format === 'json' ? JSON.parse(text.replace(/^\uFEFF/, '')) : parseDocument(text).toJS()) as Record<string, unknown>;
  const { outcome, references } = await geocodeAll(raw, validated.kind, dirname(file), output, options.geocoder);
  const kind = validated.kind;
  await writeFile(
    output,
    format === 'json' ? jsonWithCoords(raw, outcome, kind, references) : yamlWithCoords(text, outcome, kind, references),
  );
  printWarnings(validated.warnings, { quiet: false, color: false });
  process.stdout.write(flags.json ? `${JSON.stringify(outcome.map(report), null, 2)}\n` : reportTable(outcome));
  refuseUnresolved(outcome, output, flags.allowUnresolved === true);
  return 0;
}

/** Every address-only place, inline or in a CSV table, geocoded; the tables' copies written. */
async function geocodeAll(
  raw: Record<string, unknown>,
  kind: 'project' | 'oneoff',
  inputDir: string,
  output: string,
  settings: GeocoderSettings,
): Promise<{ outcome: Placed[]; references: Record<string, string> }> {
  const tables = await csvTableCopies(raw, inputDir, output);
  const places = addressOnlyLocations(raw, kind);
  const addresses = [...places.map((place) => place.address), ...tables.flatMap((table) => table.places.map((place) => place.address))];
  const results = await geocodeAddresses(await createGeocoder(settings), settings, addresses, []);
  const resultOf = (address: string): GeocodeResult => results.get(normalizeAddress(address))!;
  const outcome: Placed[] = places.map((place) => ({ ...place, where: pathText(place.parts), result: resultOf(place.address) }));
  const references: Record<string, string> = {};
  for (const table of tables) {
    for (const place of table.places) {
      const result = resultOf(place.address);
      if (result.point) place.fill(result.point);
      outcome.push({ parts: [], where: place.where, address: place.address, result });
    }
    references[table.key] = await table.write();
  }
  return { outcome, references };
}

function refuseUnresolved(outcome: Placed[], output: string, allowed: boolean): void {
  const unresolved = outcome.filter((entry) => !entry.result.point);
  if (unresolved.length === 0 || allowed) return;
  throw new InputError(
    `${unresolved.length} of ${outcome.length} addresses found nothing; ${output} has the others' coordinates (--allow-unresolved to accept)`,
    unresolved.map((entry) => ({ path: entry.where, message: entry.result.message ?? 'not found' })),
    'geocoding_failed',
  );
}

/** An address and what became of it; `parts` locate an inline entry (empty for a CSV table's row). */
type Placed = { parts: PropertyKey[]; where: string; address: string; result: GeocodeResult };

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

function jsonWithCoords(
  raw: Record<string, unknown>,
  outcome: Placed[],
  kind: 'project' | 'oneoff',
  references: Record<string, string>,
): string {
  const placed = outcome.flatMap(({ parts, result }) => (result.point && parts.length > 0 ? [{ parts, point: result.point }] : []));
  return `${JSON.stringify({ ...withCoordinates(raw, kind, placed), ...references }, null, 2)}\n`;
}

/** Through the YAML document model, so that comments and the user's layout stay where they were. */
function yamlWithCoords(text: string, outcome: Placed[], kind: 'project' | 'oneoff', references: Record<string, string>): string {
  const document = parseDocument(text);
  for (const [key, path] of Object.entries(references)) document.set(key, path);
  for (const { parts, result } of outcome) {
    if (!result.point || parts.length === 0) continue;
    for (const [key, value] of Object.entries(coordinateFields(kind, result.point))) {
      document.setIn([...parts, key], document.createNode(value, { flow: true }));
    }
  }
  return String(document);
}

function report(entry: Placed): Record<string, unknown> {
  const { result } = entry;
  return {
    path: entry.where,
    address: entry.address,
    ...(result.point ? { lat: result.point.lat, lng: result.point.lng, label: result.point.label } : {}),
    status: result.problem ?? 'found',
    ...(result.message ? { message: result.message } : {}),
  };
}

function reportTable(outcome: Placed[]): string {
  const lines = outcome.map((entry) => {
    const where = entry.result.point ? `${entry.result.point.lat.toFixed(5)}, ${entry.result.point.lng.toFixed(5)}` : '—';
    return `${entry.where}\t${entry.address}\t${where}\t${entry.result.problem ? (entry.result.message ?? entry.result.problem) : 'found'}`;
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
