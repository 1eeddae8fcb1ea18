/**
 * A local PMTiles extract (`--tiles file.pmtiles`): checked once at start, then served in byte
 * ranges, which is how the page's PMTiles reader reads it (header and root directory first, then
 * each tile it needs). Facts relied on (PMTiles v3 specification, "Header"): the file starts with
 * the 7 bytes `PMTiles` and the version byte 3; the 127-byte header holds the tile type at byte 99
 * (1 = vector tiles, MVT) and the maximum zoom at byte 101.
 */
import { open } from 'node:fs/promises';

export const PMTILES_HEADER_BYTES = 127;

export interface PmtilesFacts {
  maxZoom: number;
  /** 1: vector tiles (MVT), which the page draws; 2–5: images. */
  tileType: number;
}

/** The extract's header facts, or the reason it is no PMTiles v3 file the page can draw (a sentence). */
export async function readPmtilesHeader(file: string): Promise<PmtilesFacts | { problem: string }> {
  let header: Buffer;
  try {
    const handle = await open(file, 'r');
    try {
      header = Buffer.alloc(PMTILES_HEADER_BYTES);
      const { bytesRead } = await handle.read(header, 0, PMTILES_HEADER_BYTES, 0);
      header = header.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { problem: `cannot read "${file}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  if (header.length < PMTILES_HEADER_BYTES || header.toString('latin1', 0, 7) !== 'PMTiles') {
    return { problem: `"${file}" is not a PMTiles file (it does not start with the PMTiles header)` };
  }
  if (header[7] !== 3) return { problem: `"${file}" is PMTiles version ${header[7]}; routeplan reads version 3` };
  const tileType = header[99]!;
  if (tileType !== 1) return { problem: `"${file}" holds image tiles (type ${tileType}); routeplan draws vector (MVT) extracts` };
  return { maxZoom: header[101]!, tileType };
}

/** A `Range: bytes=…` header against a file of `size` bytes: the one range asked, 'whole' without one, null when unsatisfiable. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'whole' | null {
  if (header === undefined) return 'whole';
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges (a comma) would need a multipart answer; the PMTiles reader never asks for them.
  if (!match || (match[1] === '' && match[2] === '')) return header.includes(',') ? 'whole' : null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 ? null : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start >= size || end < start ? null : { start, end };
}
