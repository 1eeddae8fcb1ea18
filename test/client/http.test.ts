import { describe, expect, it } from 'vitest';
import { AuthError, ExitCode, InputError, RoutingError } from '../../src/errors.js';
import { ServiceClient, backoffDelayMs, parseRetryAfterMs } from '../../src/client/http.js';
import { planOf, submitProject, submitSchedule, waitForAction } from '../../src/client/service.js';
import { inputError } from '../support/input-error.js';

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

/** A scripted fetch and a virtual clock: sleeps advance time instantly, so nothing here depends on timing. */
function harness(replies: Reply[], options: { maxRetries?: number; apiKey?: string } = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  const sleeps: number[] = [];
  let clock = 1_000_000;
  const fakeFetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const reply = replies.shift();
    if (reply === undefined) throw new Error('no scripted reply left');
    if (reply instanceof Error) throw reply;
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status,
      headers: reply.headers ?? {},
    });
  }) as unknown as typeof fetch;
  const client = new ServiceClient({
    baseUrl: 'http://127.0.0.1:9/',
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    maxRetries: options.maxRetries ?? 3,
    fetch: fakeFetch,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    random: () => 0.5,
    now: () => clock,
  });
  return { client, calls, sleeps };
}

function refused(): Error {
  return Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
}

function reset(): Error {
  return Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('service client', () => {
  it('sends the key as "Authorization: Bearer <key>" and JSON bodies with their content type', async () => {
    const { client, calls } = harness([{ status: 202, body: { actionUuid: 'a', actionName: 'schedule', status: 'pending' } }], {
      apiKey: 'sekret',
    });
    await client.request({ method: 'POST', path: '/schedules', body: { routesData: [] }, idempotent: false });
    expect(calls[0]!.url).toBe('http://127.0.0.1:9/schedules');
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer sekret');
    expect(headers['content-type']).toBe('application/json');
  });

  it('retries 429 and 5xx on GET, honouring Retry-After, then succeeds', async () => {
    const { client, sleeps, calls } = harness([
      { status: 429, headers: { 'retry-after': '7' } },
      { status: 502 },
      { status: 200, body: { ok: true } },
    ]);
    expect(await client.request({ method: 'GET', path: '/x', idempotent: true })).toEqual({ ok: true });
    expect(calls).toHaveLength(3);
    expect(sleeps[0]).toBe(7000);
    expect(sleeps[1]).toBe(backoffDelayMs(1, () => 0.5));
  });

  it('retries network errors on GET a bounded number of times, then fails with exit 3', async () => {
    const { client, calls } = harness([reset(), reset(), reset(), reset(), reset()], { maxRetries: 3 });
    const error = await caught(client.request({ method: 'GET', path: '/x', idempotent: true }));
    expect(error).toBeInstanceOf(RoutingError);
    expect((error as RoutingError).exitCode).toBe(ExitCode.routingFailure);
    expect(calls).toHaveLength(4);
  });

  it('a network, body or URL failure keeps the original error as its cause', async () => {
    const failure = reset();
    const unreachable = harness([failure]);
    const error = await caught(unreachable.client.request({ method: 'POST', path: '/schedules', body: {}, idempotent: false }));
    expect(error).toBeInstanceOf(RoutingError);
    expect((error as RoutingError).code).toBe('remote_unreachable');
    expect((error as RoutingError).cause).toBe(failure);

    const garbled = harness([{ status: 200 }]);
    const notJson = await caught(garbled.client.request({ method: 'GET', path: '/x', idempotent: true }));
    expect((notJson as RoutingError).code).toBe('remote_bad_response');
    expect((notJson as RoutingError).cause).toBeInstanceOf(SyntaxError);

    expect(inputError(() => new ServiceClient({ baseUrl: 'not a url' })).cause).toBeInstanceOf(TypeError);
  });

  it('a POST is retried only when the service cannot have accepted it (refused, 429, 503)', async () => {
    const retried = harness([refused(), { status: 503 }, { status: 429 }, { status: 202, body: { actionUuid: 'a' } }]);
    await retried.client.request({ method: 'POST', path: '/schedules', body: {}, idempotent: false });
    expect(retried.calls).toHaveLength(4);

    const reset500 = harness([{ status: 500 }, { status: 202, body: {} }]);
    await expect(reset500.client.request({ method: 'POST', path: '/schedules', body: {}, idempotent: false })).rejects.toThrow(/500/);
    expect(reset500.calls).toHaveLength(1);

    const broken = harness([reset(), { status: 202, body: {} }]);
    await expect(broken.client.request({ method: 'POST', path: '/schedules', body: {}, idempotent: false })).rejects.toThrow(
      /cannot reach/,
    );
    expect(broken.calls).toHaveLength(1);
  });

  it('401 becomes an AuthError (exit 4) whose message never contains the key', async () => {
    const { client } = harness(
      [{ status: 401, body: { error: { code: 'unauthorized', message: 'the API key is not valid', details: [] } } }],
      {
        apiKey: 'very-secret-key',
      },
    );
    const error = await caught(client.request({ method: 'GET', path: '/x', idempotent: true }));
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).exitCode).toBe(ExitCode.auth);
    expect((error as Error).message).not.toContain('very-secret-key');
  });

  it('400 keeps the service error details and exits 2; 404 exits 3', async () => {
    const details = [{ path: 'date', message: 'not allowed in a one-off request' }];
    const rejected = harness([{ status: 400, body: { error: { code: 'invalid_input', message: 'bad', details } } }]);
    const error = await caught(rejected.client.request({ method: 'POST', path: '/schedules', body: {}, idempotent: false }));
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).details).toEqual(details);

    const missing = harness([{ status: 404, body: { error: { code: 'not_found', message: 'no action', details: [] } } }]);
    const notFound = await caught(missing.client.request({ method: 'GET', path: '/v2/schedules/x', idempotent: true }));
    expect((notFound as RoutingError).exitCode).toBe(ExitCode.routingFailure);
  });

  it('a base URL with credentials or a non-http scheme is refused (exit 2)', () => {
    expect(() => new ServiceClient({ baseUrl: 'http://user:pw@host' })).toThrow(InputError);
    expect(() => new ServiceClient({ baseUrl: 'ftp://host' })).toThrow(InputError);
    expect(() => new ServiceClient({ baseUrl: 'not a url' })).toThrow(InputError);
  });

  it('backoff grows exponentially up to a cap, with jitter in the upper half', () => {
    expect(backoffDelayMs(0, () => 0)).toBe(250);
    expect(backoffDelayMs(0, () => 1)).toBe(500);
    expect(backoffDelayMs(3, () => 1)).toBe(4000);
    expect(backoffDelayMs(30, () => 1)).toBe(10_000);
  });

  it('Retry-After is read as seconds or as an HTTP date', () => {
    expect(parseRetryAfterMs('3', 0)).toBe(3000);
    expect(parseRetryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfterMs(null, 0)).toBeNull();
    expect(parseRetryAfterMs('soon', 0)).toBeNull();
  });
});

describe('Idempotency-Key on submissions', () => {
  const ack = { actionUuid: 'a-1', actionName: 'schedule', status: 'pending' };
  const keyOf = (call: { init: RequestInit }): string | undefined => (call.init.headers as Record<string, string>)['idempotency-key'];

  it('the header is sent on POST /schedules and POST /v1.0/project', async () => {
    const { client, calls } = harness([
      { status: 202, body: ack },
      { status: 201, body: { id: 'p-1', name: 'n', date: '2026-01-01', url: 'http://x/p-1' } },
    ]);
    await submitSchedule(client, {}, 'key-schedule');
    await submitProject(client, {}, 'key-project');
    expect(calls.map((call) => [call.url, keyOf(call)])).toEqual([
      ['http://127.0.0.1:9/schedules', 'key-schedule'],
      ['http://127.0.0.1:9/v1.0/project', 'key-project'],
    ]);
  });

  it('the same key is reused across retries, which a keyed POST now gets after a reset, a timeout or a 502', async () => {
    const timeout = Object.assign(new Error('timed out'), { name: 'TimeoutError' });
    const { client, calls } = harness([reset(), timeout, { status: 502 }, { status: 504 }, { status: 202, body: ack }], { maxRetries: 5 });
    const submitted = await submitSchedule(client, {}, 'key-once');
    expect(submitted.created).toEqual(ack);
    expect(calls.map(keyOf)).toEqual(['key-once', 'key-once', 'key-once', 'key-once', 'key-once']);
  });

  it('an answer marked Idempotent-Replayed: true is reported as replayed, its body unchanged', async () => {
    const { client } = harness([
      { status: 202, body: ack, headers: { 'idempotent-replayed': 'true' } },
      { status: 202, body: ack },
    ]);
    expect(await submitSchedule(client, {}, 'k')).toEqual({ created: ack, replayed: true });
    expect(await submitSchedule(client, {}, 'k')).toEqual({ created: ack, replayed: false });
  });

  it('a 409 idempotency_conflict is invalid input (exit 2) that says to use a new key, and is not retried', async () => {
    const details = [{ path: 'Idempotency-Key', message: 'already used for action a-0' }];
    const { client, calls } = harness([{ status: 409, body: { error: { code: 'idempotency_conflict', message: 'used', details } } }]);
    const error = await caught(submitSchedule(client, {}, 'k'));
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).exitCode).toBe(ExitCode.invalidInput);
    expect((error as InputError).code).toBe('idempotency_conflict');
    expect((error as InputError).details).toEqual(details);
    expect((error as Error).message).toMatch(/different request.*new --idempotency-key/);
    expect(calls).toHaveLength(1);
  });
});

describe('polling', () => {
  const plan = { version: 1, summary: {}, routes: [], unserved: [] };

  it('unknown statuses mean still running; polling ends on finished', async () => {
    const { client, calls } = harness([
      { status: 200, body: { actionUuid: 'a', status: 'pending' } },
      { status: 200, body: { actionUuid: 'a', status: 'queued-for-review' } },
      { status: 200, body: { actionUuid: 'a', status: 'finished', solution: plan } },
    ]);
    const action = await waitForAction(client, 'a', { timeoutMs: 60_000 });
    expect(calls).toHaveLength(3);
    expect(planOf(action)).toEqual(plan);
  });

  it('a failed action is a RoutingError (exit 3) carrying the service reason', async () => {
    const { client } = harness([
      { status: 200, body: { actionUuid: 'a', status: 'failed', error: { code: 'x', message: 'matrix broke', details: [] } } },
    ]);
    const action = await waitForAction(client, 'a', { timeoutMs: 1000 });
    const error = await caught(Promise.resolve().then(() => planOf(action)));
    expect(error).toBeInstanceOf(RoutingError);
    expect((error as RoutingError).exitCode).toBe(ExitCode.routingFailure);
    expect((error as Error).message).toContain('matrix broke');
  });

  it('the overall --timeout bounds the wait (exit 3, names the action)', async () => {
    const replies: Reply[] = Array.from({ length: 200 }, () => ({ status: 200, body: { actionUuid: 'a', status: 'pending' } }));
    const { client, calls } = harness(replies);
    const error = await caught(waitForAction(client, 'a', { timeoutMs: 20_000 }));
    expect((error as RoutingError).code).toBe('poll_timeout');
    expect((error as Error).message).toContain('routeplan poll a');
    expect(calls.length).toBeLessThan(30);
  });

  it('polling intervals grow (exponential backoff) up to the cap', async () => {
    const replies: Reply[] = Array.from({ length: 12 }, () => ({ status: 200, body: { actionUuid: 'a', status: 'pending' } }));
    replies.push({ status: 200, body: { actionUuid: 'a', status: 'finished', solution: plan } });
    const { client, sleeps } = harness(replies);
    await waitForAction(client, 'a', { timeoutMs: 600_000 });
    expect(sleeps[1]!).toBeGreaterThan(sleeps[0]!);
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(5000);
  });
});
