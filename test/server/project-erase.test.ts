/**
 * Personal data is kept forever (issue 27, item 11): `DELETE /v1.0/project/{id}` deletes a project
 * with its optimizations, dispatch (reports, positions, proof files, the frozen plan), customer
 * messages and links, and `--project-retention` does the same for projects past their date — on
 * both stores, the data directory and a real PostgreSQL. Each test lists the store's whole contents
 * afterwards: nothing of the deleted project is left, and the other project is untouched.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, removeDir, startTestService, type TestService } from './harness.js';
import { InProcessRunner, optimizedProject, tokenOf, twoDriverProject } from './dispatch-harness.js';
import { checkPlan } from '../support/checker.js';
import { loadProblemDocument } from '../../src/input/index.js';
import { startMailbox, type Mailbox } from '../support/mailbox.js';
import { fakeNominatim } from '../support/fake-nominatim.js';
import { freshDatabase, postgresUnavailable, withClient, type TestDatabase } from '../support/postgres.js';

const JPEG = readFileSync(join(import.meta.dirname, 'proof-images', 'photo.jpg'));
const DAY_MS = 86_400_000;
const NOW = new Date('2026-11-23T07:00:00Z');

/** What identifies the deleted project's personal data wherever it might have been kept. */
const ERASED_EMAIL = 'erased-customer@example.com';
const ERASED_STOP = 'Erased bakery';

function erasedProject(date = '2026-11-23'): Record<string, unknown> {
  const document: Record<string, unknown> = { ...twoDriverProject(), name: 'Erased rounds', date };
  const stops = document.stops as Record<string, unknown>[];
  stops[0] = { ...stops[0], name: ERASED_STOP, email: ERASED_EMAIL, phone_number: '+33 4 99 99 99 99' };
  return document;
}

function keptProject(date = '2026-11-23'): Record<string, unknown> {
  return { ...twoDriverProject(), name: 'Kept rounds', date };
}

/** One store's whole contents, as text: every record, and how many proof files it holds. */
interface StoreContents {
  text: string[];
  proofFiles: number;
}

interface Store {
  name: string;
  start(options?: Parameters<typeof startTestService>[0]): Promise<TestService>;
  contents(svc: TestService): Promise<StoreContents>;
}

const services: TestService[] = [];
const mailboxes: Mailbox[] = [];
let db: TestDatabase | null = null;

afterEach(async () => {
  for (const svc of services.splice(0)) await svc.stop();
  for (const svc of new Set(stoppedDirs.splice(0))) await removeDir(svc);
  for (const mailbox of mailboxes.splice(0)) await mailbox.close();
  await db?.drop();
  db = null;
});
const stoppedDirs: string[] = [];

async function started(options: Parameters<typeof startTestService>[0]): Promise<TestService> {
  const svc = await startTestService({
    runner: new InProcessRunner() as never,
    now: () => NOW,
    bodyLimitBytes: 10 * 1024 * 1024,
    ...options,
  });
  services.push(svc);
  stoppedDirs.push(svc.dataDir);
  return svc;
}

/** Every file under the data directory, read as text (proof files are counted, not read). */
async function dataDirContents(svc: TestService): Promise<StoreContents> {
  const text: string[] = [];
  let proofFiles = 0;
  for (const entry of await readdir(svc.dataDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (path.startsWith(join(svc.dataDir, 'proofs'))) proofFiles += 1;
    else text.push(`${path}: ${await readFile(path, 'utf8')}`);
  }
  return { text, proofFiles };
}

/** Every row of the service's tables, as text, and the number of proof files (bytea rows). */
async function postgresContents(): Promise<StoreContents> {
  return withClient(db!.url, async (client) => {
    const text: string[] = [];
    for (const query of [
      'SELECT stored::text AS row FROM routeplan_projects',
      'SELECT stored::text AS row FROM routeplan_actions',
      "SELECT collection || '/' || id || ': ' || body::text AS row FROM routeplan_records",
    ]) {
      text.push(...(await client.query<{ row: string }>(query)).rows.map((row) => row.row));
    }
    const blobs = await client.query<{ count: string }>('SELECT count(*) AS count FROM routeplan_blobs');
    return { text, proofFiles: Number(blobs.rows[0]!.count) };
  });
}

const STORES: Store[] = [
  { name: 'data directory', start: (options = {}) => started(options), contents: dataDirContents },
  {
    name: 'PostgreSQL',
    start: async (options = {}) => {
      db ??= await freshDatabase();
      return started({ database: db.url, ...options });
    },
    contents: () => postgresContents(),
  },
];

function mentions(contents: StoreContents, needle: string): string[] {
  return contents.text.filter((entry) => entry.includes(needle));
}

/** A project optimized, dispatched, one stop done with a photo, a position shared, its customer e-mailed. */
async function dispatchedDay(svc: TestService, document: Record<string, unknown>): Promise<{ id: string; view: any }> {
  const { id } = await optimizedProject(svc, document);
  const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
  const frozen = (await api(svc.url, 'GET', `/v1.0/project/${id}/dispatch/solution`)).body;
  expect(checkPlan(loadProblemDocument(document, { expect: 'project' }).problem, frozen)).toEqual([]);
  return { id, view };
}

for (const store of STORES) {
  describe.skipIf(store.name === 'PostgreSQL' && postgresUnavailable())(`deleting a project (${store.name})`, () => {
    it('personal data is kept forever: after DELETE nothing of the project is left in any collection, its links answer 404, a second DELETE is 404', async () => {
      const smtp = await startMailbox();
      mailboxes.push(smtp);
      const svc = await store.start({ smtp: { url: smtp.url, from: 'deliveries@bakery.example' } });
      const kept = await dispatchedDay(svc, keptProject());
      const erased = await dispatchedDay(svc, erasedProject());
      await smtp.waitFor(2);

      const stop = erased.view.stops.find((entry: any) => entry.driver_id === erased.view.drivers[0].driver_id);
      const driverToken = tokenOf(erased.view.drivers[0].url);
      const trackToken = stop.tracking_url.split('/track/')[1];
      const photo = `data:image/jpeg;base64,${JPEG.toString('base64')}`;
      const done = await api(svc.url, 'POST', `/drivers/${driverToken}/stops/${stop.stop_id}`, {
        key: null,
        body: { status: 'done', photo },
      });
      expect(done.status).toBe(200);
      const position = { lat: 45.79, lng: 4.83, at: NOW.toISOString() };
      expect((await api(svc.url, 'POST', `/drivers/${driverToken}/position`, { key: null, body: position })).status).toBe(200);
      const before = await store.contents(svc);
      expect(mentions(before, erased.id).length).toBeGreaterThan(0);
      expect(mentions(before, ERASED_EMAIL).length).toBeGreaterThan(0);
      expect(before.proofFiles).toBe(1);

      // Another key's delete is a 404 and changes nothing.
      expect((await api(svc.url, 'DELETE', `/v1.0/project/${erased.id}`, { key: 'key-beta' })).status).toBe(404);
      expect((await api(svc.url, 'GET', `/v1.0/project/${erased.id}`)).status).toBe(200);

      const deleted = await api(svc.url, 'DELETE', `/v1.0/project/${erased.id}`);
      expect(deleted.status).toBe(204);
      const after = await store.contents(svc);
      expect(mentions(after, erased.id)).toEqual([]);
      expect(mentions(after, ERASED_EMAIL)).toEqual([]);
      expect(mentions(after, ERASED_STOP)).toEqual([]);
      expect(mentions(after, 'Erased rounds')).toEqual([]);
      expect(after.proofFiles).toBe(0);
      expect((await api(svc.url, 'GET', `/v1.0/project/${erased.id}`)).status).toBe(404);
      expect((await api(svc.url, 'GET', `/drivers/${driverToken}/route`, { key: null })).status).toBe(404);
      expect((await api(svc.url, 'GET', `/track/${trackToken}/status`, { key: null })).status).toBe(404);
      for (const optimization of (await api(svc.url, 'GET', '/v1.0/projects')).body.projects) expect(optimization.id).not.toBe(erased.id);
      expect((await api(svc.url, 'DELETE', `/v1.0/project/${erased.id}`)).status).toBe(404);

      // The other project, its dispatch and its messages are untouched.
      expect(mentions(after, kept.id).length).toBeGreaterThan(0);
      const keptNow = await api(svc.url, 'GET', `/v1.0/project/${kept.id}`);
      expect(keptNow.status).toBe(200);
      expect(keptNow.body.notifications.messages.length).toBeGreaterThan(0);
      expect((await api(svc.url, 'GET', `/drivers/${tokenOf(kept.view.drivers[0].url)}/route`, { key: null })).status).toBe(200);
      // The log names the deletion by ids only.
      const logged = svc.logs.filter((line) => line.includes('"event":"project_deleted"'));
      expect(logged).toHaveLength(1);
      expect(svc.logs.filter((line) => line.includes(ERASED_EMAIL) || line.includes(ERASED_STOP))).toEqual([]);
    });

    it('a running optimization of the deleted project is cancelled, its solve stopped, and the action is 404', async () => {
      const svc = await store.start({ runner: undefined, now: () => NOW });
      const created = await api(svc.url, 'POST', '/v1.0/project', { body: erasedProject() });
      const started = await api(svc.url, 'POST', `/v1.0/project/${created.body.id}/optimize`);
      await svc.runner.waitForStarts(1);
      expect((await api(svc.url, 'DELETE', `/v1.0/project/${created.body.id}`)).status).toBe(204);
      expect(svc.runner.aborted).toHaveLength(1);
      expect((await api(svc.url, 'GET', `/v2/schedules/${started.body.actionUuid}`)).status).toBe(404);
      expect(mentions(await store.contents(svc), created.body.id)).toEqual([]);
    });

    it('--project-retention deletes a project whose date is older than that many days, with its plans, and keeps a recent one', async () => {
      const first = await store.start();
      const old = await optimizedProject(first, erasedProject('2026-10-20'));
      const recent = await optimizedProject(first, keptProject('2026-11-20'));
      await first.stop();
      services.splice(services.indexOf(first), 1);

      const later = await store.start({ dataDir: first.dataDir, projectRetentionMs: 30 * DAY_MS });
      expect((await api(later.url, 'GET', `/v1.0/project/${old.id}`)).status).toBe(404);
      expect((await api(later.url, 'GET', `/v2/schedules/${old.actionUuid}`)).status).toBe(404);
      expect((await api(later.url, 'GET', `/v1.0/project/${recent.id}`)).status).toBe(200);
      expect((await api(later.url, 'GET', `/v2/schedules/${recent.actionUuid}`)).status).toBe(200);
      const contents = await store.contents(later);
      expect(mentions(contents, old.id)).toEqual([]);
      expect(mentions(contents, recent.id).length).toBeGreaterThan(0);
      expect(later.logs.some((line) => line.includes('"projects_deleted":1'))).toBe(true);
    });
  });
}

describe('the log holds no personal data', () => {
  it('an SMTP refusal quoting the customer’s address is logged with the address replaced', async () => {
    const smtp = await startMailbox();
    mailboxes.push(smtp);
    smtp.refuse(ERASED_EMAIL, 550, 1);
    const svc = await STORES[0]!.start({ smtp: { url: smtp.url, from: 'deliveries@bakery.example' } });
    const { id } = await dispatchedDay(svc, erasedProject());
    await expect.poll(async () => (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body.notifications.messages[0]?.status).toBe('failed');
    const failed = (await api(svc.url, 'GET', `/v1.0/project/${id}`)).body.notifications.messages[0];
    // The project's owner sees the server's reply as it came; the log does not.
    expect(failed.error).toContain(ERASED_EMAIL);
    expect(svc.logs.filter((line) => line.includes('"event":"notification_failed"'))).toHaveLength(1);
    expect(svc.logs.filter((line) => line.includes(ERASED_EMAIL))).toEqual([]);
  });
});

describe('the log holds no personal data (geocoding)', () => {
  it('a geocoder failure quoting an address is logged with the address replaced', async () => {
    const nominatim = await fakeNominatim({});
    const cacheDir = await mkdtemp(join(tmpdir(), 'routeplan-erase-geocode-'));
    stoppedDirs.push(cacheDir);
    try {
      nominatim.failNext([400]);
      const geocoder = { name: 'nominatim' as const, url: nominatim.url, version: 't', cacheDir };
      const svc = await STORES[0]!.start({ geocoder });
      const address = '12 Rue des Erased, Lyon';
      const document = { ...keptProject(), stops: [{ name: ERASED_STOP, location: { address }, duration: 5 }] };
      const created = await api(svc.url, 'POST', '/v1.0/project', { body: document });
      expect(created.status).toBe(201);
      await expect.poll(async () => (await api(svc.url, 'GET', `/v1.0/project/${created.body.id}`)).body.geocoding_status).toBe('done');
      expect(svc.logs.filter((line) => line.includes('"event":"geocoding_failed"'))).toHaveLength(1);
      expect(svc.logs.filter((line) => line.toLowerCase().includes('rue des erased'))).toEqual([]);
    } finally {
      await nominatim.close();
    }
  });
});

describe('which projects retention deletes', () => {
  it('a project whose day ended at least the retention before now', async () => {
    const { dayBefore } = await import('../../src/server/services/project-erase.js');
    // Day 2026-10-23 ended at 2026-10-24T00:00Z, exactly 30 days before 2026-11-23T00:00Z.
    expect(dayBefore(new Date('2026-11-23T00:00:00Z'), 30 * DAY_MS)).toBe('2026-10-24');
    expect(dayBefore(new Date('2026-11-23T23:59:59Z'), 30 * DAY_MS)).toBe('2026-10-24');
    expect(dayBefore(new Date('2026-11-23T07:00:00Z'), 0.5 * DAY_MS)).toBe('2026-11-22');
  });
});
