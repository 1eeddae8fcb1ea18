/** Errors the CLI and the service turn into exit codes and `{"error": {...}}` bodies. */
import type { z } from 'zod';
import type { errorBodySchema, errorDetailSchema, warningSchema } from './error-schema.js';

export const ExitCode = {
  ok: 0,
  internal: 1,
  invalidInput: 2,
  routingFailure: 3,
  auth: 4,
  unserved: 5,
  interrupted: 130,
} as const;

export type ErrorDetail = z.infer<typeof errorDetailSchema>;

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Every constructor takes the standard `{ cause }` last, so a wrapped error keeps the original. */
export class RouteplanError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number,
    readonly details: ErrorDetail[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'RouteplanError';
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/** Invalid input or usage: exit 2, HTTP 400. */
export class InputError extends RouteplanError {
  constructor(message: string, details: ErrorDetail[] = [], code = 'invalid_input', options?: ErrorOptions) {
    super(code, message, ExitCode.invalidInput, details, options);
    this.name = 'InputError';
  }
}

/** Routing, matrix or remote-service failure: exit 3. */
export class RoutingError extends RouteplanError {
  constructor(message: string, code = 'routing_failed', details: ErrorDetail[] = [], options?: ErrorOptions) {
    super(code, message, ExitCode.routingFailure, details, options);
    this.name = 'RoutingError';
  }
}

/** Authentication missing or rejected: exit 4, HTTP 401. */
export class AuthError extends RouteplanError {
  constructor(message: string, options?: ErrorOptions) {
    super('unauthorized', message, ExitCode.auth, [], options);
    this.name = 'AuthError';
  }
}

/** A warning about the input that does not stop the solve (unknown fields, rounding, …). */
export type Warning = z.infer<typeof warningSchema>;
