/**
 * A gazetteer: the user's own list of addresses and coordinates (CSV `address,lat,lng`), matched
 * on the normalized address. Offline, exact, and the default when one is configured.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { parseCsvTable, withDecimalPoint } from '../csv/index.js';
import { normalizeAddress } from './normalize.js';
import type { GeocodeCandidate, GeocodeResult, Geocoder } from './types.js';

export async function gazetteerGeocoder(file: string): Promise<Geocoder> {
  const places = await readGazetteer(file);
  return {
    name: 'gazetteer',
    geocode(addresses, onEach) {
      const results = addresses.map((address, index) => {
        const point = places.get(normalizeAddress(address));
        const result: GeocodeResult = point
          ? { address, point, candidates: [point] }
          : { address, candidates: [], problem: 'not_found', message: `"${address}" is not in the gazetteer ${file}` };
        onEach?.(result, index + 1, addresses.length);
        return result;
      });
      return Promise.resolve(results);
    },
  };
}

async function readGazetteer(file: string): Promise<Map<string, GeocodeCandidate>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(
      `cannot read the gazetteer ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      [{ path: 'gazetteer', message: 'cannot read the file' }],
      undefined,
      {
        cause: error,
      },
    );
  }
  const table = parseCsvTable(text, file);
  const column = (name: string): number => table.header.findIndex((cell) => cell.trim().toLowerCase() === name);
  const [address, lat, lng] = [column('address'), column('lat'), column('lng')];
  if (address < 0 || lat < 0 || lng < 0) {
    throw new InputError(`${file}: expected the header address,lat,lng, got ${table.header.join(',')}`, [
      { path: `${file}:row 1`, message: 'expected address,lat,lng' },
    ]);
  }
  const places = new Map<string, GeocodeCandidate>();
  for (const record of table.records) {
    const label = record.cells[address]?.trim() ?? '';
    const point = {
      lat: Number(withDecimalPoint(record.cells[lat] ?? '', table.delimiter)),
      lng: Number(withDecimalPoint(record.cells[lng] ?? '', table.delimiter)),
    };
    if (
      label === '' ||
      !(Math.abs(point.lat) <= 90) ||
      !(Math.abs(point.lng) <= 180) ||
      record.cells[lat]?.trim() === '' ||
      record.cells[lng]?.trim() === ''
    ) {
      throw new InputError(`${file} row ${record.row}: expected an address and coordinates (lat −90..90, lng −180..180)`, [
        { path: `${file}:row ${record.row}`, message: 'expected an address, lat and lng' },
      ]);
    }
    places.set(normalizeAddress(label), { ...point, label });
  }
  return places;
}
