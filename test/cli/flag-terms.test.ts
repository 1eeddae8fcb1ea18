import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { inFlagTerms } from '../../src/cli/flag-terms.js';
import { reportError } from '../../src/cli/present.js';
import { InputError } from '../../src/errors.js';
import { loadProblemFile } from '../../src/input/index.js';
import { inputError, inputErrorAsync, load, project } from '../input/helpers.js';

/** The input layer names settings; these are its errors as the command line shows them. */
const shown = inFlagTerms;

describe('setting errors in the terms of the command-line flags', () => {
  it('an unknown extension: the error asks for --input-format', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'routeplan-flags-'));
    writeFileSync(join(dir, 'q.dat'), '\u0000\u0001');
    const error = shown(await inputErrorAsync(() => loadProblemFile(join(dir, 'q.dat'))));
    expect(error.message).toMatch(/pass --input-format json, yaml or csv \(or --format solomon or vrplib/);
    expect(error.message).toBe(
      `Cannot tell the format of ${join(dir, 'q.dat')}: name it .json, .yaml, .yml, .csv or .vrp, or pass --input-format json, yaml or csv (or --format solomon or vrplib for a benchmark instance)`,
    );
  });

  it('stdin (-) that is neither JSON nor YAML', async () => {
    vi.spyOn(process, 'stdin', 'get').mockReturnValueOnce(Readable.from(['a,b\n1,2\n']) as unknown as typeof process.stdin);
    const error = shown(await inputErrorAsync(() => loadProblemFile('-')));
    expect(error.message).toMatch(/standard input \(neither JSON nor YAML\): .*pass --input-format json, yaml or csv/);
  });

  it('an invalid road factor or base speed is an input error naming the flag', () => {
    expect(shown(inputError(() => load(project(), { roadFactor: 0 }))).message).toMatch(/--road-factor/);
    expect(shown(inputError(() => load(project(), { baseSpeedKmh: -5 }))).message).toMatch(/--base-speed/);
    const both = shown(inputError(() => load(project(), { roadFactor: 0, baseSpeedKmh: -5 })));
    expect(both.message).toBe(
      'Invalid travel model: --road-factor: 0 is not allowed; use a number > 0 (default 1.3); --base-speed: -5 is not allowed; use a speed in km/h > 0 (default 40)',
    );
    expect(both.details.map((d) => d.path)).toEqual(['--road-factor', '--base-speed']);
  });

  it('reportError prints setting errors with their flags', async () => {
    let text = '';
    const stderr = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    vi.spyOn(process, 'stdin', 'get').mockReturnValueOnce(Readable.from(['a,b\n1,2\n']) as unknown as typeof process.stdin);
    reportError(await inputErrorAsync(() => loadProblemFile('-')), {}, { stdout: stderr, stderr });
    expect(text).toContain('pass --input-format json, yaml or csv');
  });

  it('other errors are shown as they are, also a document field spelt like a setting', () => {
    const error = new InputError('invalid project: roadFactor: 2', [{ path: 'stops[0].name', message: 'roadFactor: 2' }]);
    expect(inFlagTerms(error)).toBe(error);
  });
});
