/**
 * `routeplan submit` and Idempotency-Key, through the BUILT binary against a real in-process
 * service: every submission carries a key, a retry after a lost answer reuses it (so the service
 * replays the first action instead of making a second), `--idempotency-key` lets a CI script re-run
 * a submit and get the same action, and a bad or conflicting key is invalid input (exit 2).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateOneOff } from '../support/generate.js';
import { servicesStoppedAfterEach, type TestService } from '../server/harness.js';
import { assertBuilt, runCli } from '../server/built.js';

const API_KEY = 'key-alpha';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const service = servicesStoppedAfterEach();
let work: string;
let problemFile: string;
let otherProblemFile: string;
const proxies: Server[] = [];

beforeAll(async () => {
  assertBuilt();
  work = await mkdtemp(join(tmpdir(), 'routeplan-submit-idempotency-'));
  problemFile = join(work, 'oneoff.json');
  otherProblemFile = join(work, 'other.json');
  await writeFile(problemFile, JSON.stringify(generateOneOff(3, { stops: 6 })));
  await writeFile(otherProblemFile, JSON.stringify(generateOneOff(4, { stops: 6 })));
});
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await new Promise((resolve) => proxy.close(resolve));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const submit = (url: string, ...extra: string[]) => runCli(['submit', problemFile, '--remote', url, '--api-key', API_KEY, ...extra]);

const actionFiles = async (svc: TestService): Promise<string[]> =>
  (await readdir(join(svc.dataDir, 'actions'))).filter((file) => file.endsWith('.json'));

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Forwards every request to the service and records its Idempotency-Key. With `loseFirstAnswer`,
 * the service acts on the first request but the client only sees its connection drop: the very
 * case a retry must not turn into a second action.
 */
async function recordingProxy(target: string, { loseFirstAnswer }: { loseFirstAnswer: boolean }) {
  const keysSeen: (string | undefined)[] = [];
  const proxy = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      keysSeen.push(req.headers['idempotency-key'] as string | undefined);
      const forwarded: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'idempotency-key']) {
        if (typeof req.headers[name] === 'string') forwarded[name] = req.headers[name];
      }
      const answer = await fetch(`${target}${req.url}`, { method: req.method!, headers: forwarded, body: body.length > 0 ? body : null });
      const text = await answer.text();
      if (loseFirstAnswer && keysSeen.length === 1) return req.socket.destroy();
      const replayed = answer.headers.get('idempotent-replayed');
      res.writeHead(answer.status, { 'content-type': 'application/json', ...(replayed ? { 'idempotent-replayed': replayed } : {}) });
      res.end(text);
    })();
  });
  proxies.push(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, keysSeen };
}

describe('routeplan submit with Idempotency-Key (built binary, real service)', () => {
  it('the header is sent: a fresh random key on each submit, so two submits are two actions', async () => {
    const svc = await service();
    const proxy = await recordingProxy(svc.url, { loseFirstAnswer: false });
    const first = await submit(proxy.url);
    const second = await submit(proxy.url);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    const [key1, key2] = proxy.keysSeen;
    expect(key1).toMatch(UUID);
    expect(key2).toMatch(UUID);
    expect(key1).not.toBe(key2);
    expect(first.stdout.trim()).not.toBe(second.stdout.trim());
    expect(await actionFiles(svc)).toHaveLength(2);
  });

  it('the same key is reused across a retry after a lost answer: one action, replayed, said on stderr', async () => {
    const svc = await service();
    const proxy = await recordingProxy(svc.url, { loseFirstAnswer: true });
    const result = await submit(proxy.url);
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.keysSeen).toHaveLength(2);
    expect(proxy.keysSeen[0]).toMatch(UUID);
    expect(proxy.keysSeen[1]).toBe(proxy.keysSeen[0]);
    const actionUuid = result.stdout.trim();
    expect(actionUuid).toMatch(UUID);
    expect(await actionFiles(svc)).toEqual([`${actionUuid}.json`]);
    expect(result.stderr).toContain(`the service already had this request: action ${actionUuid}`);
  });

  it('--idempotency-key twice gives the same actionUuid and one action; --json output stays the plain answer', async () => {
    const svc = await service();
    const first = await submit(svc.url, '--idempotency-key', 'ci-run-4711');
    const again = await submit(svc.url, '--idempotency-key', 'ci-run-4711');
    expect(first.code, first.stderr).toBe(0);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(first.stderr).not.toContain('already had this request');
    expect(again.stderr.split('\n').filter((line) => line.includes('already had this request'))).toEqual([
      `routeplan: the service already had this request: action ${first.stdout.trim()}`,
    ]);

    const asJson = await submit(svc.url, '--idempotency-key', 'ci-run-4711', '--json');
    expect(asJson.code, asJson.stderr).toBe(0);
    expect(JSON.parse(asJson.stdout).actionUuid).toBe(first.stdout.trim());
    expect(asJson.stderr).not.toContain('already had this request');
    expect(await actionFiles(svc)).toHaveLength(1);
  });

  it('a bad --idempotency-key is exit 2 with a clear message, and nothing is sent', async () => {
    const svc = await service();
    for (const bad of ['', 'x'.repeat(256), 'clé', ' padded']) {
      const result = await submit(svc.url, '--idempotency-key', bad);
      expect(result.code, `${JSON.stringify(bad)}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain('invalid --idempotency-key: expected 1 to 255 visible ASCII characters');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const asJson = await submit(svc.url, '--idempotency-key', '', '--json');
    expect(JSON.parse(asJson.stdout).error.details[0].path).toBe('--idempotency-key');
    expect(await actionFiles(svc)).toHaveLength(0);
  });

  it('a 409 idempotency_conflict (the key already used for another problem) is exit 2 with a clear message', async () => {
    const svc = await service();
    expect((await submit(svc.url, '--idempotency-key', 'ci-run-1')).code).toBe(0);
    const other = await runCli(['submit', otherProblemFile, '--remote', svc.url, '--api-key', API_KEY, '--idempotency-key', 'ci-run-1']);
    expect(other.code, other.stderr).toBe(2);
    expect(other.stderr).toContain('already used this idempotency key for a different request');
    expect(other.stderr).not.toMatch(/\n\s+at /);
    expect(await actionFiles(svc)).toHaveLength(1);
  });

  it('submit --help documents --idempotency-key', async () => {
    const help = await runCli(['submit', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--idempotency-key <key>');
  });
});
