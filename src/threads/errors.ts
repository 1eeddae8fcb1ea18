/**
 * Errors across a thread boundary. Structured cloning keeps only an error's message and stack, so
 * a worker's InputError would arrive as a plain Error (exit 1 instead of 2, HTTP 500 instead of
 * 400). An error travels as plain data instead and is rebuilt with its class, code, exit code,
 * details and cause on the other side.
 */
import { AuthError, InputError, RouteplanError, RoutingError, type ErrorDetail } from '../errors.js';

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** RouteplanError and its subclasses. */
  code?: string;
  exitCode?: number;
  details?: ErrorDetail[];
  cause?: SerializedError;
}

/** Rebuilds each error class of errors.ts; anything else becomes an Error with the same name. */
const REBUILDERS: Record<string, (e: Required<Pick<SerializedError, 'code' | 'message' | 'exitCode' | 'details'>>) => Error> = {
  InputError: (e) => new InputError(e.message, e.details, e.code),
  RoutingError: (e) => new RoutingError(e.message, e.code, e.details),
  AuthError: (e) => new AuthError(e.message),
  RouteplanError: (e) => new RouteplanError(e.code, e.message, e.exitCode, e.details),
};

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const serialized: SerializedError = { name: error.name, message: error.message };
  if (error.stack !== undefined) serialized.stack = error.stack;
  if (error instanceof RouteplanError) {
    serialized.code = error.code;
    serialized.exitCode = error.exitCode;
    serialized.details = error.details;
  }
  if (error.cause !== undefined) serialized.cause = serializeError(error.cause);
  return serialized;
}

export function deserializeError(serialized: SerializedError): Error {
  const { code, exitCode, details } = serialized;
  const rebuild = REBUILDERS[serialized.name] ?? (code !== undefined ? REBUILDERS.RouteplanError : undefined);
  let error: Error;
  if (rebuild && code !== undefined && exitCode !== undefined) {
    error = rebuild({ code, exitCode, message: serialized.message, details: details ?? [] });
  } else {
    error = new Error(serialized.message);
  }
  error.name = serialized.name;
  if (serialized.stack !== undefined) error.stack = serialized.stack;
  if (serialized.cause !== undefined) error.cause = deserializeError(serialized.cause);
  return error;
}
