/** Drives the BUILT binary (bin/routeplan → dist/) as a user would: the service and the CLI. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = `${ROOT}bin/routeplan`;

export function assertBuilt(): void {
  if (!existsSync(`${ROOT}dist/src/threads/worker.js`)) {
    throw new Error('the service is not built: run "npx tsc -p ." (npm test does it) before these tests');
  }
}

/** Environment without the caller's routeplan settings, so a developer's config cannot leak in. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('ROUTEPLAN_')) env[name] = value;
  }
  env.XDG_CONFIG_HOME = '/nonexistent-routeplan-test-config';
  env.NO_COLOR = '1';
  return { ...env, ...extra };
}

export interface BuiltServer {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM, then resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL (kill -9), then resolves once it is gone. */
  kill9(): Promise<void>;
}

export function startBuiltServer(args: string[], env: Record<string, string> = {}, startTimeoutMs = 15_000): Promise<BuiltServer> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    env: cleanEnv(env),
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not start in ${startTimeoutMs} ms:\n${stderr}`));
    }, startTimeoutMs);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          child,
          stderr: () => stderr,
          stop: async () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            return exited;
          },
          kill9: async () => {
            if (child.exitCode === null) child.kill('SIGKILL');
            await exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited with ${code} before listening:\n${stderr}`));
    });
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`routeplan ${args.join(' ')} did not end in ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a built server `name` of the current test: its own data directory, on `database()`, then `args`. */
export type ServeOnDatabase = (name: string, args?: string[]) => Promise<BuiltServer>;

/**
 * Built `routeplan serve` processes sharing the database `database()` gives (databasePerTest), each
 * with a data directory of its own in one temporary folder; all killed (-9) and the folder removed
 * after each test. Call it inside the describe block, after databasePerTest.
 */
export function builtServersOnDatabase(database: () => { url: string }, env: Record<string, string>, prefix: string): ServeOnDatabase {
  const servers: BuiltServer[] = [];
  let work = '';
  beforeEach(async () => {
    assertBuilt();
    work = await mkdtemp(join(tmpdir(), `routeplan-${prefix}-`));
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.kill9();
    await rm(work, { recursive: true, force: true });
  });
  return async (name, args = []) => {
    const server = await startBuiltServer(['--database', database().url, '--data-dir', join(work, name), ...args], env);
    servers.push(server);
    return server;
  };
}
