/** HTTP plumbing for the service: the error shape of decisions.md, JSON and form bodies with a size limit. */
import type { IncomingMessage } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { ErrorBody, ErrorDetail } from '../../errors.js';
import { jsonDuplicateKeyDetails } from '../../input/read.js';
import { nestingProblem } from '../../input/nesting.js';

/** An error that already knows its HTTP status; everything else becomes a 500. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'HttpError';
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

export function sendJson(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  void reply
    .code(status)
    .headers({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
      ...headers,
    })
    .send(text);
}

export function sendError(reply: FastifyReply, error: HttpError): void {
  sendJson(reply, error.status, error.toBody(), error.headers);
}

function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** `application/json` with optional parameters (charset) — and the `+json` suffix types. */
export function isJsonContentType(header: string | undefined): boolean {
  const mediaType = mediaTypeOf(header);
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

export function isFormContentType(header: string | undefined): boolean {
  return mediaTypeOf(header) === 'application/x-www-form-urlencoded';
}

/** A form post (`application/x-www-form-urlencoded`), read with the same limit and drain as JSON. */
export async function readFormBody(req: IncomingMessage, limitBytes: number): Promise<URLSearchParams> {
  if (!isFormContentType(req.headers['content-type'])) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      `expected Content-Type: application/x-www-form-urlencoded, got ${req.headers['content-type'] ?? 'none'}`,
    );
  }
  return new URLSearchParams(await readBody(req, limitBytes));
}

/**
 * Reads the whole body, refusing more than `limitBytes` (413) without buffering the excess, then
 * parses JSON. An oversize body is drained (up to DRAIN_FACTOR × the limit) before the 413 is sent,
 * because a client still uploading would otherwise see a broken pipe instead of the answer.
 */
export async function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      `expected Content-Type: application/json, got ${req.headers['content-type'] ?? 'none'}`,
    );
  }
  // A byte-order mark is what some editors and Windows tools put first; the CLI accepts it too.
  const text = (await readBody(req, limitBytes)).replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new HttpError(400, 'malformed_json', 'the request body is empty; expected a JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'malformed_json', `the request body is not valid JSON: ${(error as Error).message}`, [], {}, { cause: error });
  }
  const tooDeep = nestingProblem(parsed);
  if (tooDeep) throw new HttpError(400, 'malformed_json', `the request body at ${tooDeep.path} is ${tooDeep.message}`, [tooDeep]);
  const duplicates = jsonDuplicateKeyDetails(text);
  if (duplicates.length > 0) {
    throw new HttpError(
      400,
      'malformed_json',
      `the request body gives ${duplicates.length === 1 ? 'a field' : `${duplicates.length} fields`} twice: ${duplicates[0]!.path}`,
      duplicates,
    );
  }
  return parsed;
}

/** A JSON body that may be left out: no body at all reads as `{}`. */
export async function readOptionalJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const declared = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if ((declared === undefined || declared === '0') && !chunked) return {};
  return readJsonBody(req, limitBytes);
}

const DRAIN_FACTOR = 4;

async function readBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  return (await readBytesBody(req, limitBytes)).toString('utf8');
}

/** The body's bytes as sent (an uploaded file), with the same limit and drain as JSON. */
export function readBytesBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes * DRAIN_FACTOR) return Promise.reject(bodyTooLarge(limitBytes));
  return readLimited(req, limitBytes);
}

function bodyTooLarge(limitBytes: number): HttpError {
  return new HttpError(413, 'payload_too_large', `the request body exceeds the limit of ${limitBytes} bytes`, [], {
    connection: 'close',
  });
}

function readLimited(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      // Past the drain allowance the client is not worth waiting for: answer now.
      if (size > limitBytes * DRAIN_FACTOR) reject(bodyTooLarge(limitBytes));
    });
    req.on('end', () => {
      if (size > limitBytes) reject(bodyTooLarge(limitBytes));
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => reject(new HttpError(400, 'bad_request', `the request body could not be read: ${error.message}`)));
  });
}

/** The request's path without its query and without one trailing slash, as logs and messages name it. */
export function pathOf(url: string | undefined): string {
  const raw = (url ?? '/').split('?')[0]!;
  return raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
}
