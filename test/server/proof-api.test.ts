/**
 * Proof of delivery over HTTP (decisions.md, "The live day"), against the real service and store:
 * a Done with a photo, a signature and the recipient's name is kept and served to the project's
 * owner and to that driver's link only, with the type checked on arrival and private headers;
 * `settings.proof` refuses a Done without what it asks; a failure takes a reason code; the files
 * go when the stop is set back to planned, when a re-dispatch drops it, and by retention.
 */
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, removeDir, startTestService, type TestService } from './harness.js';
import { InProcessRunner, optimize, optimizedProject, tokenOf, twoDriverProject } from './dispatch-harness.js';
import { checkPlan } from '../support/checker.js';
import { loadProblemDocument } from '../../src/input/index.js';

const IMAGES = join(import.meta.dirname, 'proof-images');
const JPEG = readFileSync(join(IMAGES, 'photo.jpg'));
const PNG = readFileSync(join(IMAGES, 'signature.png'));

const services: TestService[] = [];
let clock = new Date('2026-11-23T07:00:00Z');

async function service(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const started = await startTestService({
    runner: new InProcessRunner() as never,
    now: () => clock,
    bodyLimitBytes: 10 * 1024 * 1024,
    ...options,
  });
  services.push(started);
  return started;
}

afterEach(async () => {
  clock = new Date('2026-11-23T07:00:00Z');
  for (const started of services.splice(0)) {
    await started.stop();
    await removeDir(started.dataDir);
  }
});

interface Day {
  svc: TestService;
  id: string;
  token: string;
  otherToken: string;
  stops: any[];
}

async function dispatchedDay(settings: Record<string, unknown> = {}): Promise<Day> {
  const svc = await service();
  const document = { ...twoDriverProject(), settings };
  const { id } = await optimizedProject(svc, document);
  const view = (await api(svc.url, 'POST', `/v1.0/project/${id}/dispatch`)).body;
  const frozen = (await api(svc.url, 'GET', `/v1.0/project/${id}/dispatch/solution`)).body;
  expect(checkPlan(loadProblemDocument(document, { expect: 'project' }).problem, frozen)).toEqual([]);
  const [driver, other] = view.drivers;
  const stops = view.stops.filter((stop: any) => stop.driver_id === driver.driver_id);
  return { svc, id, token: tokenOf(driver.url), otherToken: tokenOf(other.url), stops };
}

function report(day: Day, stopId: string, body: unknown): ReturnType<typeof api> {
  return api(day.svc.url, 'POST', `/drivers/${day.token}/stops/${stopId}`, { key: null, body });
}

async function fetchBytes(url: string, key: string | null): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function storedFiles(svc: TestService): Promise<string[]> {
  return (await readdir(join(svc.dataDir, 'proofs'))).filter((file) => !file.includes('.tmp-'));
}

describe('proof of delivery over the API', () => {
  it('keeps the photo, the signature and the recipient; the owner and that driver fetch them, nobody else', async () => {
    const day = await dispatchedDay();
    const stop = day.stops[0];
    const done = await report(day, stop.stop_id, {
      status: 'done',
      photo: `data:image/jpeg;base64,${JPEG.toString('base64')}`,
      signature: PNG.toString('base64'),
      recipient: 'Mme Durand',
    });
    const driverBase = `/drivers/${day.token}/stops/${stop.stop_id}`;
    expect(done.status).toBe(200);
    expect(done.body.proof).toEqual({
      photo_url: `${driverBase}/photo`,
      signature_url: `${driverBase}/signature`,
      recipient: 'Mme Durand',
    });

    const seen = (await api(day.svc.url, 'GET', `/v1.0/project/${day.id}`)).body.dispatch.stops.find(
      (entry: any) => entry.stop_id === stop.stop_id,
    );
    const ownerBase = `/v1.0/project/${day.id}/dispatch/stops/${stop.stop_id}`;
    expect(seen.proof).toEqual({ photo_url: `${ownerBase}/photo`, signature_url: `${ownerBase}/signature`, recipient: 'Mme Durand' });

    const photo = await fetchBytes(`${day.svc.url}${seen.proof.photo_url}`, 'key-alpha');
    expect(photo.status).toBe(200);
    expect(photo.bytes.equals(JPEG)).toBe(true);
    expect([photo.headers.get('content-type'), photo.headers.get('cache-control'), photo.headers.get('x-content-type-options')]).toEqual([
      'image/jpeg',
      'private',
      'nosniff',
    ]);
    const signature = await fetchBytes(`${day.svc.url}${seen.proof.signature_url}`, 'key-alpha');
    expect([signature.headers.get('content-type'), signature.bytes.equals(PNG)]).toEqual(['image/png', true]);
    expect((await fetchBytes(`${day.svc.url}${seen.proof.photo_url}`, 'key-beta')).status).toBe(404);
    expect((await fetchBytes(`${day.svc.url}${seen.proof.photo_url}`, null)).status).toBe(401);

    const byDriver = await fetchBytes(`${day.svc.url}${done.body.proof.photo_url}`, null);
    expect([byDriver.status, byDriver.bytes.equals(JPEG), byDriver.headers.get('cache-control')]).toEqual([200, true, 'private']);
    const byOtherDriver = await fetchBytes(`${day.svc.url}/drivers/${day.otherToken}/stops/${stop.stop_id}/photo`, null);
    expect(byOtherDriver.status).toBe(404);
    expect(await storedFiles(day.svc)).toHaveLength(2);
  });

  it('refuses what is not an image (415), too large (413) or cut off (400), naming the field, and keeps nothing', async () => {
    const day = await dispatchedDay();
    const stopId = day.stops[0].stop_id;
    const text = await report(day, stopId, { status: 'done', photo: Buffer.from('GIF89a? no: plain text').toString('base64') });
    expect([text.status, text.body.error.code, text.body.error.details[0].path]).toEqual([415, 'unsupported_image', 'photo']);
    const large = await report(day, stopId, { status: 'done', signature: Buffer.alloc(250_000).toString('base64') });
    expect([large.status, large.body.error.details[0].path]).toEqual([413, 'signature']);
    const cut = await report(day, stopId, { status: 'done', photo: JPEG.subarray(0, 400).toString('base64') });
    expect([cut.status, cut.body.error.message]).toEqual([
      400,
      'invalid proof of delivery: photo: is not a whole JPEG image (cut off or damaged)',
    ]);
    const view = (await api(day.svc.url, 'GET', `/v1.0/project/${day.id}/dispatch`)).body;
    expect(view.stops.find((entry: any) => entry.stop_id === stopId).status).toBe('planned');
    expect(await storedFiles(day.svc)).toEqual([]);
  });

  it('settings.proof: photo refuses a Done without a photo, says so on the route, and takes one with it', async () => {
    const day = await dispatchedDay({ proof: 'photo' });
    const route = (await api(day.svc.url, 'GET', `/drivers/${day.token}/route`, { key: null })).body;
    expect(route.proof_required).toBe('photo');
    const stopId = day.stops[0].stop_id;
    const refused = await report(day, stopId, { status: 'done', recipient: 'Someone', signature: PNG.toString('base64') });
    expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([
      400,
      'proof_required',
      [{ path: 'photo', message: 'add a photo of the delivery before Done' }],
    ]);
    const accepted = await report(day, stopId, { status: 'done', photo: JPEG.toString('base64') });
    expect([accepted.status, accepted.body.status]).toEqual([200, 'done']);
    // A failure needs no proof.
    const failed = await report(day, day.stops[1].stop_id, { status: 'failed', reason_code: 'not_at_home' });
    expect([failed.status, failed.body.reason_code]).toEqual([200, 'not_at_home']);
  });

  it('takes a failure reason from the list, with "other" needing text, and a bare reason as "other"', async () => {
    const day = await dispatchedDay();
    const [first, second] = day.stops;
    const refused = await report(day, first.stop_id, { status: 'failed', reason_code: 'refused', reason: 'Wrong order' });
    expect([refused.body.reason_code, refused.body.reason]).toEqual(['refused', 'Wrong order']);
    const other = await report(day, second.stop_id, { status: 'failed', reason_code: 'other' });
    expect([other.status, other.body.error.details[0].path]).toEqual([400, 'reason']);
    const old = await report(day, second.stop_id, { status: 'failed', reason: 'Gate locked' });
    expect([old.body.reason_code, old.body.reason]).toEqual(['other', 'Gate locked']);
    const seen = (await api(day.svc.url, 'GET', `/v1.0/project/${day.id}/dispatch`)).body.stops;
    expect(seen.find((stop: any) => stop.stop_id === first.stop_id)).toMatchObject({ reason_code: 'refused', reason: 'Wrong order' });
  });

  it('deletes the files when the stop is set back to planned, and when a re-dispatch drops the stop', async () => {
    const day = await dispatchedDay();
    const stopId = day.stops[0].stop_id;
    const photo = { status: 'done', photo: JPEG.toString('base64') };
    await report(day, stopId, photo);
    const url = `${day.svc.url}/v1.0/project/${day.id}/dispatch/stops/${stopId}/photo`;
    expect((await fetchBytes(url, 'key-alpha')).status).toBe(200);
    const undone = await report(day, stopId, { status: 'planned' });
    expect(undone.body.proof).toBeUndefined();
    expect((await fetchBytes(url, 'key-alpha')).status).toBe(404);
    expect(await storedFiles(day.svc)).toEqual([]);

    await report(day, stopId, photo);
    expect(await storedFiles(day.svc)).toHaveLength(1);
    const removed = await api(day.svc.url, 'DELETE', `/v1.0/project/${day.id}/stops/${stopId}`);
    expect(removed.status).toBe(200);
    await optimize(day.svc, day.id);
    const redispatched = await api(day.svc.url, 'POST', `/v1.0/project/${day.id}/dispatch`, { body: { redispatch: true } });
    expect(redispatched.status).toBe(200);
    expect(await storedFiles(day.svc)).toEqual([]);
  });

  it('deletes the files by retention, counted from the dispatch’s expiry; the stop stays done', async () => {
    const day = await dispatchedDay();
    const stopId = day.stops[0].stop_id;
    await report(day, stopId, { status: 'done', photo: JPEG.toString('base64'), recipient: 'Mme Durand' });
    const expires = Date.parse((await api(day.svc.url, 'GET', `/v1.0/project/${day.id}/dispatch`)).body.drivers[0].expires_at);
    await day.svc.stop();
    clock = new Date(expires + 2 * 86_400_000 + 1_000);
    const later = await service({ dataDir: day.svc.dataDir, retentionMs: 2 * 86_400_000 });
    expect(await storedFiles(later)).toEqual([]);
    const stop = (await api(later.url, 'GET', `/v1.0/project/${day.id}/dispatch`)).body.stops.find(
      (entry: any) => entry.stop_id === stopId,
    );
    expect([stop.status, stop.proof]).toEqual(['done', undefined]);
    expect(later.logs.some((line) => line.includes('"proofs_deleted":1'))).toBe(true);
  });
});
