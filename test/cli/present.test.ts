import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/cli/commands/solve.js';
import { loadFormat } from '../../src/cli/options.js';
import { parseConfigFlag } from '../../src/config/config.js';
import { colorEnabled, outputFormatFor, printPlan, reportError, runCommand } from '../../src/cli/present.js';
import type { IoStreams } from '../../src/cli/present.js';
import { usageExitCode } from '../../src/cli/program.js';
import { AuthError, InputError, RoutingError } from '../../src/errors.js';
import { buildPlan } from '../../src/output/plan.js';
import { sampleProblem, sampleResult } from '../output/sample.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

function capture(): IoStreams & { out: Capture; err: Capture } {
  const out = new Capture();
  const err = new Capture();
  return { stdout: out, stderr: err, out, err };
}

const plan = buildPlan(sampleProblem(), sampleResult());
const savedExitCode = process.exitCode;
afterEach(() => {
  process.exitCode = savedExitCode;
});

describe('exit codes (decisions.md, command-line conventions)', () => {
  it('exit code 0: success', async () => {
    const io = capture();
    expect(await runCommand({}, async () => undefined, io)).toBe(0);
    expect(io.err.text).toBe('');
  });

  it('exit code 1: unexpected internal error, one line, no stack trace', async () => {
    const io = capture();
    const code = await runCommand(
      {},
      async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'x')\n    at somewhere (file.ts:1:1)");
      },
      io,
    );
    expect(code).toBe(1);
    expect(io.err.text.trim().split('\n')).toHaveLength(1);
    expect(io.err.text).toContain('internal error');
    expect(io.err.text).not.toMatch(/\n\s+at /);
  });

  it('exit code 1: ROUTEPLAN_DEBUG=1 adds the stack trace', () => {
    const io = capture();
    const code = reportError(new Error('boom'), {}, io, { ROUTEPLAN_DEBUG: '1' });
    expect(code).toBe(1);
    expect(io.err.text).toMatch(/\n\s+at /);
  });

  it('exit code 2: invalid input, with every detail naming its field', async () => {
    const io = capture();
    const code = await runCommand(
      {},
      async () => {
        throw new InputError('invalid project', [
          { path: 'stops[3].priority', message: 'expected low, regular, high or 1–10000' },
          { path: 'drivers[0].speed', message: 'unknown speed "warp"' },
        ]);
      },
      io,
    );
    expect(code).toBe(2);
    expect(io.err.text).toContain('stops[3].priority: expected low');
    expect(io.err.text).toContain('drivers[0].speed: unknown speed');
    expect(io.out.text).toBe('');
  });

  it('exit code 2: a missing input file is invalid input, not an internal error', async () => {
    const io = capture();
    const code = await runCommand(
      {},
      async () => {
        readFileSync('/nonexistent/routeplan/problem.yaml');
      },
      io,
    );
    expect(code).toBe(2);
    expect(io.err.text).toContain('/nonexistent/routeplan/problem.yaml');
  });

  it('exit code 2: usage errors from commander (unknown option, missing argument)', () => {
    expect(usageExitCode(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--frobnicate'"))).toBe(2);
    expect(usageExitCode(new CommanderError(1, 'commander.missingArgument', "error: missing required argument 'file'"))).toBe(2);
    expect(usageExitCode(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toBe(0);
    expect(usageExitCode(new CommanderError(0, 'commander.version', '0.1.0'))).toBe(0);
    // `routeplan` alone prints the help on stderr: no command is a usage error.
    expect(usageExitCode(new CommanderError(1, 'commander.help', '(outputHelp)'))).toBe(2);
  });

  it('exit code 2: contradictory format flags (stdin without one is told apart by its content)', () => {
    expect(loadFormat('-', {})).toBeUndefined();
    expect(() => loadFormat('x.txt', { inputFormat: 'json', format: 'solomon' })).toThrow(InputError);
    expect(() => loadFormat('-', { inputFormat: 'xml' })).toThrow(/json, yaml, csv/);
    expect(loadFormat('-', { inputFormat: 'YAML' })).toBe('yaml');
    expect(loadFormat('c101.txt', { format: 'solomon' })).toBe('solomon');
    expect(() => parseConfigFlag('maxIterations', '0')).toThrow(/--max-iterations/);
  });

  it('exit code 3: routing failure', async () => {
    const io = capture();
    expect(
      await runCommand(
        {},
        async () => {
          throw new RoutingError('the matrix service did not answer');
        },
        io,
      ),
    ).toBe(3);
  });

  it('exit code 4: authentication missing or rejected', async () => {
    const io = capture();
    expect(
      await runCommand(
        {},
        async () => {
          throw new AuthError('the service rejected the API key');
        },
        io,
      ),
    ).toBe(4);
  });

  it('exit code 5: only with --fail-on-unserved, when the plan leaves stops unserved', () => {
    expect(plan.unserved.length).toBeGreaterThan(0);
    expect(exitCodeFor(plan, { interrupted: false, failOnUnserved: true })).toBe(5);
    expect(exitCodeFor(plan, { interrupted: false, failOnUnserved: false })).toBe(0);
    const complete = { ...plan, unserved: [] };
    expect(exitCodeFor(complete, { interrupted: false, failOnUnserved: true })).toBe(0);
  });

  it('exit code 130: interrupted', () => {
    expect(exitCodeFor(plan, { interrupted: true, failOnUnserved: true })).toBe(130);
  });

  it('the command body may return its own exit code', async () => {
    expect(await runCommand({}, async () => 5, capture())).toBe(5);
  });
});

describe('stdout/stderr split', () => {
  it('--json: an error is also printed on stdout as {"error": {...}} in the service shape', async () => {
    const io = capture();
    await runCommand(
      { json: true },
      async () => {
        throw new InputError('invalid one-off request', [{ path: 'date', message: 'a one-off request has no date' }]);
      },
      io,
    );
    expect(JSON.parse(io.out.text)).toEqual({
      error: {
        code: 'invalid_input',
        message: 'invalid one-off request',
        details: [{ path: 'date', message: 'a one-off request has no date' }],
      },
    });
    expect(io.err.text).toContain('invalid one-off request');
  });

  it('--json: an internal error is also JSON on stdout', async () => {
    const io = capture();
    await runCommand(
      { json: true },
      async () => {
        throw new Error('kaboom');
      },
      io,
    );
    expect(JSON.parse(io.out.text)).toEqual({ error: { code: 'internal', message: 'kaboom', details: [] } });
  });

  it('printPlan: tables on stdout, JSON with json, nothing on stderr', async () => {
    const io = capture();
    await printPlan(plan, { color: false }, io);
    expect(io.out.text).toContain('Route 1: Van A');
    expect(io.err.text).toBe('');
    const jsonIo = capture();
    await printPlan(plan, { json: true }, jsonIo);
    expect(JSON.parse(jsonIo.out.text)).toEqual(plan);
  });

  it('printPlan: -o writes the file by extension and notes it on stderr; --quiet drops the note and the tables', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'routeplan-out-'));
    const io = capture();
    await printPlan(plan, { output: join(dir, 'plan.geojson') }, io);
    expect(JSON.parse(readFileSync(join(dir, 'plan.geojson'), 'utf8')).type).toBe('FeatureCollection');
    expect(io.err.text).toContain('plan.geojson');
    expect(io.out.text).toContain('Route 1');
    const quiet = capture();
    await printPlan(plan, { output: join(dir, 'plan.html'), quiet: true }, quiet);
    expect(readFileSync(join(dir, 'plan.html'), 'utf8')).toContain('<svg');
    expect(quiet.out.text + quiet.err.text).toBe('');
  });

  it('output format: by extension, or --output-format; unknown extension is a usage error naming --output', () => {
    expect(outputFormatFor('a/plan.JSON')).toBe('json');
    expect(outputFormatFor('plan.geojson')).toBe('geojson');
    expect(outputFormatFor('plan.htm')).toBe('html');
    expect(outputFormatFor('plan.txt', 'html')).toBe('html');
    expect(() => outputFormatFor('plan.txt')).toThrow(InputError);
    try {
      outputFormatFor('plan.txt');
    } catch (error) {
      expect((error as InputError).details[0]!.path).toBe('--output');
    }
    expect(() => outputFormatFor('plan.txt', 'pdf' as never)).toThrow(/--output-format/);
  });

  it('colour only on a TTY, never with --no-color or NO_COLOR', () => {
    expect(colorEnabled({}, { isTTY: true }, {})).toBe(true);
    expect(colorEnabled({}, { isTTY: false }, {})).toBe(false);
    expect(colorEnabled({ color: false }, { isTTY: true }, {})).toBe(false);
    expect(colorEnabled({}, { isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({}, { isTTY: true }, { NO_COLOR: '' })).toBe(true);
  });
});

describe('spinner text', () => {
  it('shows the elapsed time and the best plan so far', async () => {
    const { spinnerText } = await import('../../src/cli/progress.js');
    expect(spinnerText(2345, null)).toBe('Solving 2.3 s · searching…');
    expect(spinnerText(1000, { elapsedMs: 900, iterations: 120, served: 14, unserved: 1, routesUsed: 3, cost: 0 })).toBe(
      'Solving 1.0 s · best so far: 14 served, 1 unserved, 3 routes (120 iterations)',
    );
  });
});

describe('spinner only on a terminal', () => {
  it('needs a TTY with a known, non-zero width', async () => {
    const { spinnerAllowed } = await import('../../src/cli/progress.js');
    expect(spinnerAllowed({ isTTY: true, columns: 80 })).toBe(true);
    expect(spinnerAllowed({ isTTY: false, columns: 80 })).toBe(false);
    expect(spinnerAllowed({ isTTY: true, columns: 0 })).toBe(false);
    expect(spinnerAllowed({})).toBe(false);
  });
});

describe('solve summary line on the terminal', () => {
  it('says how long the search ran, how many iterations and why it stopped', async () => {
    const { solvedText } = await import('../../src/cli/commands/solve.js');
    const result = sampleResult();
    result.stats = { elapsedMs: 2345, iterations: 812, firstPlanMs: 0, bestFoundMs: 0, seed: 0, threads: 1, stoppedBy: 'time' };
    expect(solvedText(result)).toBe('Solved in 2.3 s · 812 iterations · time limit reached');
    result.stats.stoppedBy = 'aborted';
    expect(solvedText(result)).toContain('interrupted');
  });
});

describe('error details', () => {
  it('a lone detail the message already spells out is not printed twice', () => {
    const io = capture();
    const detail = { path: 'stops[1].priority', message: '"urgent" is not allowed' };
    reportError(new InputError(`bakery.yaml: invalid project: ${detail.path}: ${detail.message}`, [detail]), {}, io, {});
    expect(io.err.text.split('"urgent" is not allowed')).toHaveLength(2);
  });

  it('several details each get their own line under the summary', () => {
    const io = capture();
    reportError(
      new InputError('bakery.yaml: invalid project: 2 errors', [
        { path: 'stops[0].end', message: 'bad time' },
        { path: 'drivers[1].speed', message: 'bad speed' },
      ]),
      {},
      io,
      {},
    );
    expect(io.err.text).toContain('\n  stops[0].end: bad time\n');
    expect(io.err.text).toContain('\n  drivers[1].speed: bad speed\n');
  });
});

describe('colour on stderr', () => {
  it('errors are coloured only when stderr itself is a terminal', () => {
    const piped = capture();
    reportError(new InputError('bad'), { color: true }, piped, {});
    expect(piped.err.text).not.toMatch(/\u001b\[/);
    const terminal = capture();
    (terminal.err as unknown as { isTTY: boolean }).isTTY = true;
    reportError(new InputError('bad'), { color: true }, terminal, {});
    expect(terminal.err.text).toMatch(/\u001b\[31m/);
    const noColor = capture();
    (noColor.err as unknown as { isTTY: boolean }).isTTY = true;
    reportError(new InputError('bad'), { color: false }, noColor, {});
    expect(noColor.err.text).not.toMatch(/\u001b\[/);
  });
});
