/** Errors across a thread boundary keep their class, code, exit code, details and cause. */
import { describe, expect, it } from 'vitest';
import { ExitCode, InputError, RouteplanError, RoutingError } from '../../src/errors.js';
import { deserializeError, serializeError } from '../../src/threads/errors.js';

/** What a worker posts is structured-cloned: the round trip goes through the same cloning. */
const acrossThreads = (error: unknown): Error => deserializeError(structuredClone(serializeError(error)));

describe('error transport', () => {
  it('an InputError arrives as an InputError, with its code, exit code, details and stack', () => {
    const sent = new InputError('invalid project: 1 error', [{ path: 'stops[2].priority', message: 'not allowed' }], 'invalid_input');
    const received = acrossThreads(sent);
    expect(received).toBeInstanceOf(InputError);
    expect(received).toMatchObject({
      code: 'invalid_input',
      exitCode: ExitCode.invalidInput,
      details: sent.details,
      message: sent.message,
    });
    expect(received.stack).toBe(sent.stack);
  });

  it('routing errors and other RouteplanErrors keep their class and code', () => {
    expect(acrossThreads(new RoutingError('no matrix', 'matrix_failed'))).toBeInstanceOf(RoutingError);
    const interrupted = acrossThreads(new RouteplanError('interrupted', 'stopped', ExitCode.interrupted));
    expect(interrupted).toBeInstanceOf(RouteplanError);
    expect(interrupted).toMatchObject({ code: 'interrupted', exitCode: ExitCode.interrupted });
  });

  it('the cause travels too, rebuilt the same way', () => {
    const cause = new RoutingError('the provider did not answer', 'provider_down');
    const received = acrossThreads(new Error('the solve failed', { cause }));
    expect(received.cause).toBeInstanceOf(RoutingError);
    expect((received.cause as RoutingError).code).toBe('provider_down');
  });

  it('any other error keeps its name and message; a thrown non-error becomes its text', () => {
    const received = acrossThreads(new TypeError("Cannot read properties of undefined (reading 'len')"));
    expect(received).toMatchObject({ name: 'TypeError', message: "Cannot read properties of undefined (reading 'len')" });
    expect(received).not.toBeInstanceOf(RouteplanError);
    expect(acrossThreads('plain text').message).toBe('plain text');
  });
});
