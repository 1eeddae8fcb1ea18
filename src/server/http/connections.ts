/**
 * The HTTP server's guard on connections, from their first moment: a connection that sends no
 * request within the headers timeout is answered 408 and closed (Node's own headers timeout only
 * starts once a request's first byte arrives, so a silent socket was held for minutes); beyond
 * the connection cap new ones are refused at once; and the errors Node answers itself (a timeout,
 * a malformed request) are answered in the service's error shape. Timeouts, refusals and client
 * errors are logged, one line each, by a RateLimitedLog so that a flood cannot fill the disk.
 */
import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { HttpError } from './replies.js';
import type { RateLimitedLog } from '../rate-limited-log.js';

export interface ConnectionSettings {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
}

/** How long an idle keep-alive connection stays open between two requests (Node's default too). */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

export function createGuardedServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  limits: ConnectionSettings,
  log: RateLimitedLog,
): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // A request without Host is refused by Access.checkHost in the service's error shape; Node's own refusal has none.
      requireHostHeader: false,
      // How often Node looks for connections past those limits (its default is 30 s).
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    handler,
  );
  server.maxConnections = limits.maxConnections;
  closeSilentConnections(server, limits.headersTimeoutMs, log);
  server.on('drop', () => log.write({ event: 'connection_refused', reason: 'max_connections', max_connections: limits.maxConnections }));
  return server;
}

/**
 * Each new connection must bring its first request's headers within the headers timeout. Once a
 * request has arrived, Node's own timeouts take over (the keep-alive timeout between requests, the
 * headers and request timeouts within one).
 */
function closeSilentConnections(server: Server, timeoutMs: number, log: RateLimitedLog): void {
  const waiting = new WeakMap<Socket, NodeJS.Timeout>();
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => timeOut(socket, 'no_request', log), timeoutMs);
    timer.unref();
    waiting.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  });
  server.on('request', (request: IncomingMessage) => clearTimeout(waiting.get(request.socket)));
}

/** Node's `clientError`: a request timed out or could not be parsed. Answered in the service's shape. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket, log: RateLimitedLog): void {
  // A reset connection has nobody to answer, and one already answered and ended has nobody more.
  if (error.code === 'ECONNRESET' || answered(socket)) return;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // Node's own check may fire first on a connection that sent nothing at all.
    timeOut(socket, socket.bytesRead === 0 ? 'no_request' : 'request_incomplete', log);
    return;
  }
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new HttpError(431, 'headers_too_large', 'the request headers are too large')
      : new HttpError(400, 'bad_request', 'the request is not valid HTTP');
  log.write({ event: 'client_error', status: refusal.status, reason: error.code ?? 'unknown' });
  answerAndClose(socket, refusal);
}

/** 408 on a connection that did not bring a whole request in time (`reason`: none at all, or a part). */
function timeOut(socket: Socket, reason: 'no_request' | 'request_incomplete', log: RateLimitedLog): void {
  // The service's timer and Node's own check may both fire before the client has closed.
  if (answered(socket)) return;
  log.write({ event: 'request_timeout', status: 408, reason });
  answerAndClose(socket, new HttpError(408, 'request_timeout', 'the request did not arrive in time; the connection is closed'));
}

/** Whether a connection is gone or has had its last answer (answerAndClose ended it). */
function answered(socket: Socket): boolean {
  return socket.destroyed || socket.writableEnded;
}

function answerAndClose(socket: Socket, error: HttpError): void {
  if (socket.writable) {
    const body = JSON.stringify(error.toBody());
    socket.write(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.end();
  // A client that never reads must not hold the socket open either.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
