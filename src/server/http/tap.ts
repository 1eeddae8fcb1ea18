/**
 * A watch on the HTTP layer (ServeOptions.httpTap): every route as it is registered, and every
 * answer as it is sent. The tests hold the OpenAPI document to the service with it (a route it does
 * not describe, an answer it does not allow); the service itself runs without one.
 */
import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  /** As registered (`/v2/schedules/:id(^…$)`). */
  url: string;
  /** The methods it answers (routes/table.ts addPath says them; fastify's own list for a plain route). */
  methods: string[];
}

export interface TappedAnswer {
  method: string;
  /** The route that answered, as registered; undefined when none matched (a 404 of no route). */
  route: string | undefined;
  status: number;
  contentType: string | undefined;
  /** The body sent, when it was text or bytes (a stream, a file, is not read). */
  body: string | null;
}

export interface HttpTap {
  route?(route: RegisteredRoute): void;
  answer?(answer: TappedAnswer): void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The methods an addPath route answers: it is registered for all of them, to answer the rest 405. */
    methods?: string[];
  }
}

/** Installs the tap; called before any route is registered, so that it sees them all. */
export function installTap(app: FastifyInstance, tap: HttpTap): void {
  app.addHook('onRoute', (route) => {
    const methods = route.config?.methods ?? (Array.isArray(route.method) ? route.method : [route.method]);
    tap.route?.({ url: route.url, methods: [...methods] });
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const contentType = reply.getHeader('content-type');
    tap.answer?.({
      method: request.method,
      route: request.routeOptions.url,
      status: reply.statusCode,
      contentType: typeof contentType === 'string' ? contentType : undefined,
      body: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null,
    });
    done(null, payload);
  });
}
