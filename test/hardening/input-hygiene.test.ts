/**
 * Issue 10, first part: inputs that used to end as internal errors (exit 1 / HTTP 500) or be read
 * differently by the CLI and the service. Each test is named after the defect it reproduces.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProblemFile } from '../../src/input/index.js';
import { InputError } from '../../src/errors.js';
import { renderPlanTables } from '../../src/output/table.js';
import { colorEnabled } from '../../src/cli/present.js';
import { spinnerAllowed } from '../../src/cli/progress.js';
import { load, oneoff, project, stop } from '../input/helpers.js';
import { api, removeDir, smallProject, startTestService, type TestService } from '../server/harness.js';
import { cannedPlan } from '../server/harness.js';

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
  const dir = await mkdtemp(join(tmpdir(), 'routeplan-hygiene-'));
  dirs.push(dir);
  await writeFile(join(dir, name), text);
  return join(dir, name);
}

const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];

describe('keys named like Object.prototype members', () => {
  it('are warned about like any unknown field, holding objects or scalars, anywhere in a project or a one-off', () => {
    for (const key of PROTOTYPE_KEYS) {
      for (const value of [{ a: 1 }, 3, 'x']) {
        // JSON.parse makes `__proto__` an own key, as a request body or a file would.
        const document = JSON.parse(
          JSON.stringify(project({ stops: [stop('A')] })).replace(
            '"name":"A"',
            `"name":"A",${JSON.stringify(key)}:${JSON.stringify(value)}`,
          ),
        );
        document[key] = value;
        const top = JSON.parse(JSON.stringify(document).replace(/^\{/, `{${JSON.stringify(key)}:${JSON.stringify(value)},`));
        const warnings = load(top).warnings.map((warning) => warning.path);
        expect(warnings, `${key} = ${JSON.stringify(value)}`).toEqual(expect.arrayContaining([key, `stops[0].${key}`]));
      }
      const request = { ...oneoff(), options: JSON.parse(`{${JSON.stringify(key)}:{"x":1}}`) as Record<string, unknown> };
      expect(load(request).warnings.map((warning) => warning.path)).toContain(`options.${key}`);
    }
  });

  it('are accepted with warnings over HTTP too, never a 500', async () => {
    const svc = await startTestService();
    services.push(svc);
    const body = JSON.stringify(smallProject()).replace('{', '{"constructor":{"a":1},"__proto__":{"b":2},');
    const created = await api(svc.url, 'POST', '/v1.0/project', { rawBody: body });
    expect(created.status).toBe(201);
    expect(created.body.warnings.map((warning: any) => warning.path)).toEqual(['constructor', '__proto__']);
  });
});

describe('YAML aliases', () => {
  it('an alias to an anchor that does not exist is an input error, not an internal one', async () => {
    const error = await loadProblemFile(await file('a.yaml', 'name: x\ndate: 2024-01-01\nstops: *nope\n')).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/invalid YAML: the alias \*nope names no anchor set before it/);
  });

  it('an alias bomb is refused as input, quickly', async () => {
    const lines = ['name: x', 'date: "2024-01-01"', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++) lines.push(`a${i}: &a${i} [${new Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    const started = Date.now();
    const error = await loadProblemFile(await file('bomb.yaml', `${lines.join('\n')}\nstops: []\n`)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/aliases expand to too many nodes/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('request bodies validated exactly like files', () => {
  it('a body starting with a UTF-8 byte-order mark is accepted, as the CLI accepts the file', async () => {
    const svc = await startTestService();
    services.push(svc);
    const created = await api(svc.url, 'POST', '/v1.0/project', { rawBody: `\uFEFF${JSON.stringify(smallProject())}` });
    expect(created.status).toBe(201);
  });

  it('a duplicate key is refused over HTTP (400 naming it), as the CLI refuses the same file', async () => {
    const svc = await startTestService();
    services.push(svc);
    const body = JSON.stringify(smallProject()).replace('"name":"Morning rounds"', '"name":"Morning rounds","name":"Evening rounds"');
    const refused = await api(svc.url, 'POST', '/v1.0/project', { rawBody: body });
    expect([refused.status, refused.body.error.code, refused.body.error.details[0].path]).toEqual([400, 'malformed_json', 'name']);
    const cli = await loadProblemFile(await file('dup.json', body)).catch((caught: unknown) => caught);
    expect((cli as InputError).details[0]!.path).toBe('name');
  });
});

describe('CSV tables', () => {
  it('a table with both a capacity column and a capacity_<dimension> column is an input error naming both', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'routeplan-hygiene-csv-'));
    dirs.push(dir);
    await writeFile(join(dir, 'p.yaml'), 'name: x\ndate: 2024-01-01\ndrivers: drivers.csv\nstops: stops.csv\n');
    await writeFile(join(dir, 'drivers.csv'), 'name,start_lat,start_lng,capacity,capacity_weight\nA,45.7,4.8,10,20\n');
    await writeFile(join(dir, 'stops.csv'), 'name,lat,lng\ns1,45.71,4.81\n');
    const error = await loadProblemFile(join(dir, 'p.yaml')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain('columns "capacity" and "capacity_weight" both give capacity');
  });
});

describe('terminal output', () => {
  it('control characters in names are shown escaped in tables, never written raw', () => {
    const plan = cannedPlan('Evil\u001b]0;pwned\u0007 stop');
    const text = renderPlanTables(plan, { color: false });
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain('Evil\\x1b]0;pwned\\x07 stop');
  });

  it('TERM=dumb gets no colour and no spinner', () => {
    expect(colorEnabled({}, { isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(colorEnabled({}, { isTTY: true }, { TERM: 'xterm-256color' })).toBe(true);
    expect(spinnerAllowed({ isTTY: true, columns: 80 }, { TERM: 'dumb' })).toBe(false);
    expect(spinnerAllowed({ isTTY: true, columns: 80 }, { TERM: 'xterm' })).toBe(true);
  });
});

describe('everyday mistakes', () => {
  it('`stop:` instead of `stops:` is an error naming both, not an empty valid plan', () => {
    const document = { name: 'x', date: '2024-05-14', drivers: [], stop: [{ name: 'A' }] };
    const error = (() => {
      try {
        load(document);
      } catch (caught) {
        return caught as InputError;
      }
      throw new Error('expected an InputError');
    })();
    expect(error.details.map((detail) => detail.path)).toEqual(['stop', 'stops']);
    expect(error.message).toContain('looks like a misspelling of "stops"');
    const request = { ...oneoff(), ordersData: [], orderData: [{ name: 'o' }] };
    expect(() => load(request)).toThrow(/misspelling of "ordersData"/);
  });

  it('loading leaves the caller\u2019s document as it was: carried fields are copied, never frozen', () => {
    const notes = { gate: { code: '1234' }, floors: [1, 2] };
    const document = project({ stops: [stop('A', { custom_notes: notes })] });
    const before = structuredClone(document);
    const loaded = load(document);
    expect(document).toEqual(before);
    expect(Object.isFrozen(notes) || Object.isFrozen(notes.gate) || Object.isFrozen(notes.floors)).toBe(false);
    expect(loaded.problem.stops[0]!.passthrough.custom_notes).toEqual(notes);
  });

  it('names are kept exactly as given, spaces (and non-breaking spaces) included', () => {
    const loaded = load(project({ stops: [stop(' Café\u00a0du Parc ')] }));
    expect(loaded.problem.stops[0]!.name).toBe(' Café\u00a0du Parc ');
    expect(() => load(project({ stops: [stop('   ')] }))).toThrow(InputError);
  });
});

describe('CSV table references that are not regular files', () => {
  it('a FIFO or a device is refused at once (it would hang or never end)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'routeplan-hygiene-fifo-'));
    dirs.push(dir);
    execFileSync('mkfifo', [join(dir, 'stops.csv')]);
    await writeFile(join(dir, 'fifo.yaml'), 'name: x\ndate: 2024-01-01\nstops: stops.csv\n');
    await writeFile(join(dir, 'zero.yaml'), 'name: x\ndate: 2024-01-01\nstops: /dev/zero\n');
    for (const [name, reason] of [
      ['fifo.yaml', 'is not a regular file'],
      ['zero.yaml', 'is not a regular file'],
    ] as const) {
      const started = Date.now();
      const error = await loadProblemFile(join(dir, name)).catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(InputError);
      expect((error as InputError).details[0]!.message).toContain(reason);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });
});
