/**
 * Real Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core
 * (never a downloaded browser). A missing browser or a missing web build fails loudly: CI
 * installs the chromium package, and `npm run build` writes dist/web.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer, type RunningServer, type ServeOptions } from '../../src/server/index.js';
import { ROOT } from '../server/built.js';
import { answerRecorder } from '../server/harness.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SHOTS = join(ROOT, 'results/web');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the browser tests need Debian's Chromium at ${CHROMIUM}, which is missing: install it with "apt-get install chromium" (.ci/run does)`,
    );
  }
  if (!existsSync(join(ROOT, 'dist/web/index.html')) || !existsSync(join(ROOT, 'dist/web/assets/project.js'))) {
    throw new Error('the web application is not built (dist/web): run "npm run build" before these tests');
  }
  await mkdir(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** A screenshot for people to look at, under results/web/ (git-ignored), on every run. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

export interface WebService {
  url: string;
  running: RunningServer;
  logs: string[];
  stop(): Promise<void>;
}

/** The real service in-process, with API keys and the real worker-thread solver. */
export async function startWebService(keys: string[], timeLimitMs: number, extra: Partial<ServeOptions> = {}): Promise<WebService> {
  const dataDir = await mkdtemp(join(tmpdir(), 'routeplan-web-'));
  const logs: string[] = [];
  const running = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    keys,
    concurrency: 1,
    queueSize: 20,
    timeLimitMs,
    seed: 0,
    bodyLimitBytes: 10 * 1024 * 1024,
    shutdownTimeoutMs: 2_000,
    logLine: (line) => logs.push(line),
    // What the pages get is held to the OpenAPI document too, after each test (test/server/harness.ts).
    httpTap: answerRecorder.tap,
    ...extra,
  });
  return {
    url: running.url,
    running,
    logs,
    stop: async () => {
      await running.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON API call with a Bearer key, as a script or `routeplan` would make it. */
export async function apiCall(
  service: WebService,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

/** Signs in through the page's form, as a person would. */
export async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
}
