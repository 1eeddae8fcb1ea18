/**
 * Issue 10: deep nesting. Every way a document can nest too deep is an input error naming the path
 * (exit 2 / HTTP 400), never a stack overflow or an internal error, in files and request bodies alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProblemDocument, loadProblemFile } from '../../src/input/index.js';
import { MAX_NESTING } from '../../src/input/nesting.js';
import { InputError } from '../../src/errors.js';
import { project, stop } from '../input/helpers.js';
import { api, removeDir, smallProject, startTestService, type TestService } from '../server/harness.js';
import { assertBuilt, runCli } from '../server/built.js';

const dirs: string[] = [];
const services: TestService[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  for (const svc of services.splice(0)) {
    await svc.stop();
    await removeDir(svc.dataDir);
  }
});

async function file(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'routeplan-nesting-'));
  dirs.push(dir);
  await writeFile(join(dir, name), text);
  return join(dir, name);
}

/** `{"a":{"a":…}}` `levels` deep, as text (the value itself could not be stringified that deep). */
function deepText(levels: number, innermost = '1'): string {
  return '{"a":'.repeat(levels) + innermost + '}'.repeat(levels);
}

/** A project whose first stop's custom_notes nest `levels` deep. */
function projectWithDeepNotes(levels: number): string {
  return JSON.stringify(project({ stops: [stop('A', { custom_notes: 'DEEP' })] })).replace('"DEEP"', deepText(levels));
}

async function refusal(load: () => Promise<unknown>): Promise<InputError> {
  const error = await load().then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('the nesting limit', () => {
  it(`custom_notes nested 2,000 deep is refused by solve (exit 2) naming the path, before the solver's worker`, async () => {
    assertBuilt();
    const result = await runCli(['solve', await file('deep.json', projectWithDeepNotes(2_000))]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/stops\[0\]\.custom_notes\.a\.a.*nested deeper than 64 levels/);
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('a valid document 100,000 levels deep is refused, not frozen or copied until the stack overflows', async () => {
    const error = await refusal(async () => loadProblemFile(await file('deep.json', projectWithDeepNotes(100_000))));
    expect(error.details[0]!.path).toMatch(/^stops\[0\]\.custom_notes(\.a)+$/);
  });

  it('a JSON syntax error inside 100,000 levels is an input error with a line and column', async () => {
    const text = JSON.stringify(project()).replace('"name"', `"deep":${deepText(100_000, '1,').slice(0, -1)},"name"`);
    const error = await refusal(async () => loadProblemFile(await file('broken.json', text)));
    expect(error.message).toMatch(/invalid JSON at line 1, column \d+: nested deeper than 64 levels/);
  });

  it('YAML nested 100,000 deep is an input error saying so', async () => {
    const text = `name: x\ndate: "2024-01-01"\nnotes: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    const error = await refusal(async () => loadProblemFile(await file('deep.yaml', text)));
    expect(error.message).toMatch(/invalid YAML.*nested deeper than 64 levels/);
  });

  it('a document given in process (the library API) is held to the same limit', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 5_000; level++) deep = [deep];
    const document = project({ stops: [stop('A', { custom_notes: deep })] });
    expect(() => loadProblemDocument(document)).toThrow(InputError);
  });

  it(`exactly ${MAX_NESTING} levels load; one more is refused`, () => {
    // The document is level 1, stops 2, the stop 3: the notes' objects may fill levels 4 to 64.
    const at = (levels: number) => JSON.parse(projectWithDeepNotes(levels)) as unknown;
    expect(loadProblemDocument(at(MAX_NESTING - 3)).problem.stops).toHaveLength(1);
    expect(() => loadProblemDocument(at(MAX_NESTING - 2))).toThrow(/nested deeper than 64 levels/);
  });

  it('over HTTP a deep body is 400 naming the path, and leaves no temporary file in the store', async () => {
    const svc = await startTestService();
    services.push(svc);
    const body = JSON.stringify(smallProject()).replace('{', `{"notes":${deepText(100_000)},`);
    const refused = await api(svc.url, 'POST', '/v1.0/project', { rawBody: body });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'malformed_json']);
    expect(refused.body.error.details[0].path).toMatch(/^notes(\.a)+$/);
    for (const entry of await readdir(svc.dataDir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue; // serve.lock
      const collection = entry.name;
      expect((await readdir(join(svc.dataDir, collection))).filter((name) => name.includes('.tmp-'))).toEqual([]);
    }
  });
});

describe('duplicate keys', () => {
  it('a duplicate key after a deep structure is still found', async () => {
    const text = JSON.stringify(project()).replace('"name":', `"deep":${deepText(50)},"name":"first","name":`);
    const error = await refusal(async () => loadProblemFile(await file('dup.json', text)));
    expect(error.details.map((detail) => detail.path)).toEqual(['name']);
  });

  it('over HTTP, the same: a duplicate after a deep structure is 400 naming it', async () => {
    const svc = await startTestService();
    services.push(svc);
    const body = JSON.stringify(smallProject()).replace('"name":', `"deep":${deepText(50)},"name":"first","name":`);
    const refused = await api(svc.url, 'POST', '/v1.0/project', { rawBody: body });
    expect([refused.status, refused.body.error.details[0].path]).toEqual([400, 'name']);
  });
});
