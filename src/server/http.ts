/** HTTP plumbing for the service: the error shape of decisions.md, JSON bodies with a size limit. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorBody, ErrorDetail } from '../errors.js';

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

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, error.toBody(), error.headers);
}

/** `application/json` with optional parameters (charset) — and the `+json` suffix types. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const mediaType = header.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
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
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes * DRAIN_FACTOR) throw bodyTooLarge(limitBytes);
  const text = await readLimited(req, limitBytes);
  if (text.trim() === '') throw new HttpError(400, 'malformed_json', 'the request body is empty; expected a JSON object');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'malformed_json', `the request body is not valid JSON: ${(error as Error).message}`, [], {}, { cause: error });
  }
}

const DRAIN_FACTOR = 4;

function bodyTooLarge(limitBytes: number): HttpError {
  return new HttpError(413, 'payload_too_large', `the request body exceeds the limit of ${limitBytes} bytes`, [], {
    connection: 'close',
  });
}

function readLimited(req: IncomingMessage, limitBytes: number): Promise<string> {
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
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => reject(new HttpError(400, 'bad_request', `the request body could not be read: ${error.message}`)));
  });
}
