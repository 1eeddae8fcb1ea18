/**
 * A real HTTP server on loopback that receives webhooks as a team's endpoint would: it keeps every
 * request (headers, raw body, the sender's port) and answers as the test tells it — 500 for an
 * event's first tries, 410, a redirect to /moved, no answer at all — else 204.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  eventId: string;
  type: string;
  path: string;
  signature: string;
  body: string;
  /** The sending process's local port (which process sent it: /proc). */
  remotePort: number;
  /** The status it was answered with; null while held (never answered). */
  status: number | null;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Every event's first `tries` attempts are answered 500. */
  failFirst(tries: number): void;
  /** Every attempt is answered with this status from now on (null: back to normal). */
  answerAll(status: number | null): void;
  /** The next `count` requests get no answer until the receiver closes. */
  hold(count: number): void;
  /** The requests answered with a 2xx, by event id. */
  deliveredIds(): Map<string, number>;
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** On `port` (0: any free one; a receiver started again takes its old port). */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const triesById = new Map<string, number>();
  let failFirst = 0;
  let answerAll: number | null = null;
  let holds = 0;
  const held: ServerResponse[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const eventId = String(request.headers['routeplan-event-id'] ?? '');
      const hook: ReceivedHook = {
        eventId,
        path: request.url ?? '',
        type: String(request.headers['routeplan-event-type'] ?? ''),
        signature: String(request.headers['routeplan-signature'] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: request.socket.remotePort ?? 0,
        status: null,
        at: Date.now(),
      };
      received.push(hook);
      if (holds > 0) {
        holds--;
        held.push(response);
        return;
      }
      const tries = (triesById.get(eventId) ?? 0) + 1;
      triesById.set(eventId, tries);
      hook.status = answerAll ?? (tries <= failFirst ? 500 : 204);
      const moved = hook.status >= 300 && hook.status < 400 ? { location: '/moved' } : {};
      response.writeHead(hook.status, { 'content-type': 'text/plain', ...moved }).end(hook.status < 300 ? '' : 'try again later');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hooks/routeplan`,
    received,
    failFirst: (tries) => void (failFirst = tries),
    answerAll: (status) => void (answerAll = status),
    hold: (count) => void (holds = count),
    deliveredIds: () => {
      const counts = new Map<string, number>();
      for (const hook of received)
        if (hook.status !== null && hook.status < 300) counts.set(hook.eventId, (counts.get(hook.eventId) ?? 0) + 1);
      return counts;
    },
    waitFor: async (condition, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`webhook receiver: condition not met in ${timeoutMs} ms (${received.length} requests)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: async () => {
      for (const response of held) response.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
