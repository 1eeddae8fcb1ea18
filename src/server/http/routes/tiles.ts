/**
 * GET /tiles/basemap.pmtiles: the operator's PMTiles extract, and only it, with Range support
 * (206 with Content-Range, 416 beyond its end) and an ETag, so the page's reader fetches just the
 * bytes each view needs. Open to everyone who may open a page: the driver page draws it too.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { AppContext } from '../context.js';
import { byteRange } from '../pmtiles.js';
import { PMTILES_PATH } from '../web.js';
import { addPath } from './table.js';

export function registerTiles(app: FastifyInstance, ctx: AppContext): void {
  const tiles = ctx.web.tiles;
  if (tiles?.kind !== 'pmtiles') return;
  addPath(app, PMTILES_PATH, { GET: (request, reply) => sendRange(tiles.file, request, reply) });
}

async function sendRange(file: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { size, mtimeMs } = await stat(file);
  const etag = `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
  void reply.headers({
    etag,
    'accept-ranges': 'bytes',
    'content-type': 'application/vnd.pmtiles',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  // A range of another version of the file would mix two extracts: If-Range with a stale ETag gets the whole file.
  const ifRange = request.headers['if-range'];
  const range = ifRange !== undefined && ifRange !== etag ? 'whole' : byteRange(request.headers.range, size);
  if (range === null) {
    void reply.code(416).header('content-range', `bytes */${size}`).send();
    return;
  }
  if (request.headers['if-none-match'] === etag && range === 'whole') {
    void reply.code(304).send();
    return;
  }
  const { start, end } = range === 'whole' ? { start: 0, end: size - 1 } : range;
  void reply
    .code(range === 'whole' ? 200 : 206)
    .header('content-length', String(end - start + 1))
    .headers(range === 'whole' ? {} : { 'content-range': `bytes ${start}-${end}/${size}` });
  await reply.send(request.method === 'HEAD' ? '' : createReadStream(file, { start, end }));
}
