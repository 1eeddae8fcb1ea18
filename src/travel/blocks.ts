/**
 * A table too large for one provider request is fetched in blocks (sources × targets), a few at a
 * time, each cached on disk on its own, with progress as they come in; then put together.
 */
import { DiskCache } from '../cache/disk-cache.js';
import type { FetchHooks, TravelLocation, TravelRequest, TravelSettings, TravelTable } from './types.js';

export interface TableBlock {
  sources: number[];
  targets: number[];
}

/** One block's answer, sources × targets; null where the provider found no route. */
export interface BlockAnswer {
  durations: (number | null)[][];
  distances: (number | null)[][];
}

/** A provider that answers blocks (OSRM, Valhalla); matrix files need none of this. */
export interface BlockProvider {
  readonly name: 'osrm' | 'valhalla';
  /** The blocks a table of `size` locations is fetched in, within the provider's request limit. */
  blocksOf(size: number, settings: TravelSettings): TableBlock[];
  fetchBlock(
    locations: TravelLocation[],
    block: TableBlock,
    request: TravelRequest,
    settings: TravelSettings,
    signal?: AbortSignal,
  ): Promise<BlockAnswer>;
}

export const DEFAULT_CONCURRENCY = 4;

/** Every pair of chunks of `chunk` consecutive locations: the blocks of a square table. */
export function squareBlocks(size: number, chunk: number): TableBlock[] {
  const chunks: number[][] = [];
  for (let start = 0; start < size; start += chunk) chunks.push(range(start, Math.min(size, start + chunk)));
  return chunks.flatMap((sources) => chunks.map((targets) => ({ sources, targets })));
}

export async function fetchInBlocks(
  provider: BlockProvider,
  request: TravelRequest,
  settings: TravelSettings,
  hooks: FetchHooks,
): Promise<TravelTable> {
  const size = request.locations.length;
  const table = emptyTable(size);
  const blocks = provider.blocksOf(size, settings);
  const cache = settings.cache === false ? null : new DiskCache<BlockAnswer>('travel', settings.cacheDir);
  const total = size * size;
  let done = 0;
  hooks.onProgress?.(0, total);
  const fetchOne = async (block: TableBlock): Promise<void> => {
    const key = DiskCache.keyOf(cacheKeyParts(provider.name, request, settings, block));
    let answer = cache ? await cache.get(key) : undefined;
    if (!isAnswerFor(answer, block)) {
      answer = await provider.fetchBlock(request.locations, block, request, settings, hooks.signal);
      await cache?.set(key, answer);
    }
    place(table, block, answer!);
    done += block.sources.length * block.targets.length;
    hooks.onProgress?.(done, total);
  };
  await inPool(blocks, settings.concurrency ?? DEFAULT_CONCURRENCY, fetchOne);
  return table;
}

/** Provider, URL, profile, options and the block's coordinates: what makes an answer the same. */
function cacheKeyParts(name: string, request: TravelRequest, settings: TravelSettings, block: TableBlock): unknown[] {
  const coordinates = (indices: number[]): number[][] => indices.map((i) => [request.locations[i]!.lat, request.locations[i]!.lng]);
  return [
    name,
    settings.url ?? '',
    settings.profile ?? '',
    request.excludeTolls,
    request.excludeFerry,
    coordinates(block.sources),
    coordinates(block.targets),
  ];
}

function isAnswerFor(answer: BlockAnswer | undefined, block: TableBlock): boolean {
  return (
    answer !== undefined &&
    Array.isArray(answer.durations) &&
    Array.isArray(answer.distances) &&
    answer.durations.length === block.sources.length &&
    answer.distances.length === block.sources.length &&
    answer.durations.every((row) => Array.isArray(row) && row.length === block.targets.length) &&
    answer.distances.every((row) => Array.isArray(row) && row.length === block.targets.length)
  );
}

function emptyTable(size: number): TravelTable {
  return { size, durations: new Float64Array(size * size), distances: new Float64Array(size * size), noRoad: new Uint8Array(size * size) };
}

/** A leg from a place to itself is free, whatever the provider says about snapping it. */
function place(table: TravelTable, block: TableBlock, answer: BlockAnswer): void {
  block.sources.forEach((from, row) => {
    block.targets.forEach((to, column) => {
      const cell = from * table.size + to;
      if (from === to) return;
      const duration = answer.durations[row]![column];
      const distance = answer.distances[row]![column];
      if (duration === null || duration === undefined || distance === null || distance === undefined) table.noRoad[cell] = 1;
      else {
        table.durations[cell] = duration;
        table.distances[cell] = distance;
      }
    });
  });
}

async function inPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, i) => start + i);
}
