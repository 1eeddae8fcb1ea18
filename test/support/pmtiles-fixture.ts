/**
 * A small PMTiles v3 extract for tests, written from the specification's facts (not with the
 * pmtiles package the page reads it with): the 127-byte little-endian header, a root directory of
 * one entry, JSON metadata and one vector tile encoded with vt-pbf. The one tile stands for every
 * tile of zooms 0 to `maxZoom` (its entry's run length covers all their tile ids), so whatever view
 * a test opens is drawn: land over the whole tile, water over its western half.
 */
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';

type TileFeature = { type: 1 | 2 | 3; geometry: number[][][]; tags: Record<string, string | number> };
const require = createRequire(import.meta.url);
const vtpbf = require('vt-pbf') as { fromGeojsonVt(layers: Record<string, { features: TileFeature[] }>, options: object): Uint8Array };

const EXTENT = 4096;

/** A ring around a box of the tile's coordinates, clockwise in tile space (an outer ring). */
function box(x0: number, y0: number, x1: number, y1: number): number[][] {
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ];
}

export function fixtureTile(): Uint8Array {
  return vtpbf.fromGeojsonVt(
    {
      earth: { features: [{ type: 3, geometry: [box(-64, -64, EXTENT + 64, EXTENT + 64)], tags: { kind: 'earth' } }] },
      water: { features: [{ type: 3, geometry: [box(-64, -64, EXTENT / 2, EXTENT + 64)], tags: { kind: 'water' } }] },
    },
    { version: 2, extent: EXTENT },
  );
}

/** Unsigned LEB128, as the directory's numbers are written (values up to 2^53, so no 32-bit bit operations). */
function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

/** Tiles of zooms 0 … maxZoom: 1 + 4 + … + 4^maxZoom, the tile ids an entry at id 0 must cover. */
function tilesUpTo(maxZoom: number): number {
  return (4 ** (maxZoom + 1) - 1) / 3;
}

/**
 * One entry, columns in the specification's order: the entry count, tile id deltas, run lengths,
 * lengths, then offsets (written +1: the first entry has no entry before it to follow).
 */
function rootDirectory(tileLength: number, maxZoom: number): Buffer {
  return Buffer.from([...varint(1), ...varint(0), ...varint(tilesUpTo(maxZoom)), ...varint(tileLength), ...varint(0 + 1)]);
}

export interface PmtilesFixture {
  bytes: Buffer;
  maxZoom: number;
}

export function buildPmtiles(maxZoom = 15): PmtilesFixture {
  const tile = Buffer.from(fixtureTile());
  const directory = rootDirectory(tile.length, maxZoom);
  const metadata = Buffer.from(
    JSON.stringify({
      name: 'routeplan test extract',
      vector_layers: [
        { id: 'earth', fields: {} },
        { id: 'water', fields: {} },
      ],
    }),
  );
  const header = Buffer.alloc(127);
  const directoryOffset = 127;
  const metadataOffset = directoryOffset + directory.length;
  const tilesOffset = metadataOffset + metadata.length;
  header.write('PMTiles', 0, 'latin1');
  header.writeUInt8(3, 7);
  const u64 = (offset: number, value: number): void => void header.writeBigUInt64LE(BigInt(value), offset);
  u64(8, directoryOffset);
  u64(16, directory.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, tilesOffset); // no leaf directories: an empty section where the tiles begin
  u64(48, 0);
  u64(56, tilesOffset);
  u64(64, tile.length);
  u64(72, tilesUpTo(maxZoom));
  u64(80, 1);
  u64(88, 1);
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(1, 99); // MVT
  header.writeUInt8(0, 100);
  header.writeUInt8(maxZoom, 101);
  const e7 = (degrees: number): number => Math.round(degrees * 1e7);
  header.writeInt32LE(e7(-180), 102);
  header.writeInt32LE(e7(-85), 106);
  header.writeInt32LE(e7(180), 110);
  header.writeInt32LE(e7(85), 114);
  header.writeUInt8(12, 118);
  header.writeInt32LE(e7(4.85), 119);
  header.writeInt32LE(e7(45.76), 123);
  return { bytes: Buffer.concat([header, directory, metadata, tile]), maxZoom };
}

export async function writePmtiles(path: string, maxZoom = 15): Promise<PmtilesFixture> {
  const fixture = buildPmtiles(maxZoom);
  await writeFile(path, fixture.bytes);
  return fixture;
}
