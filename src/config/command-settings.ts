/**
 * The flags of one command's run rather than of the configuration: what to read, what to print and
 * how. No environment variable or file sets them. The output flags (--json, -q, --no-color) are
 * declared once here and attached to every command that has them.
 */
import { inMilliseconds, integerIn, numberIn, parsePath, parseSwitch, textFor } from './parse.js';
import { setting } from './setting.js';
import { isValidIdempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency-key.js';
import type { Parser } from './parse.js';
import { LEVER_NAMES, leverOfName, type Levers } from '../solver/levers.js';

export const DEFAULT_WAIT_SECONDS = 600;

/** Checked as the service checks the header, so a bad one fails before anything is sent; never trimmed. */
const parseIdempotencyKey: Parser<string> = (value) =>
  typeof value === 'string' && isValidIdempotencyKey(value)
    ? { ok: true, value }
    : { ok: false, problem: `expected 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters (a UUID is a good one)` };

/**
 * `--levers swap-star=off,population=on`: each lever by its name (solver/levers.ts) with a switch
 * word (parseSwitch's). A lever named twice is a contradiction, not an override.
 */
const parseLevers: Parser<Levers> = (value) => {
  const levers: Levers = {};
  for (const item of String(value).split(',')) {
    const [name = '', state, ...rest] = item.split('=').map((part) => part.trim());
    const key = leverOfName(name);
    if (key === undefined)
      return { ok: false, problem: `"${name}" is not a lever; expected one of ${Object.values(LEVER_NAMES).join(', ')}` };
    const on = state === undefined || rest.length > 0 ? undefined : parseSwitch(state);
    if (on === undefined || !on.ok) return { ok: false, problem: `"${item.trim()}": expected ${name}=on or ${name}=off` };
    if (levers[key] !== undefined) return { ok: false, problem: `${name} is given twice` };
    levers[key] = on.value;
  }
  return { ok: true, value: levers };
};

const INPUT = [
  setting({
    key: 'inputFormat',
    flag: '--input-format <format>',
    parse: textFor('a format'),
    help: 'format of the input: json, yaml or csv (required for "-")',
    commands: ['solve', 'validate', 'submit'],
  }),
  setting({
    key: 'format',
    flag: '--format <format>',
    parse: textFor('a format'),
    help: 'benchmark instance format: solomon or vrplib',
    commands: ['solve', 'validate'],
  }),
  setting({
    key: 'allowUnresolved',
    flag: '--allow-unresolved',
    parse: parseSwitch,
    help: {
      solve: 'leave stops whose address is not found unserved (missing_location) instead of an error',
      validate: 'accept stops whose address is not found (they would be left unserved)',
      geocode: 'exit 0 even when some addresses found nothing (they stay without coords)',
    },
    commands: ['solve', 'validate', 'geocode'],
  }),
] as const;

const SEARCH = [
  setting({
    key: 'maxIterations',
    flag: '--max-iterations <n>',
    parse: integerIn(1),
    help: 'stop after this many search iterations; each search with one route fewer gets as many again (reproducible stop)',
    commands: ['solve'],
  }),
  setting({
    key: 'fullTime',
    flag: '--full-time',
    parse: parseSwitch,
    help: 'search for the whole --time-limit: once the plan stops improving, search again from a new first plan and keep the best',
    commands: ['solve'],
  }),
  setting({
    key: 'levers',
    flag: '--levers <list>',
    parse: parseLevers,
    help: "switch the solver's levers, to measure them: name=on|off,… (README, Benchmarks)",
    commands: ['solve'],
  }),
  setting({
    key: 'failOnUnserved',
    flag: '--fail-on-unserved',
    parse: parseSwitch,
    help: 'exit with code 5 when the plan leaves stops unserved',
    commands: ['solve'],
  }),
] as const;

const REMOTE = [
  setting({
    key: 'apiKeyFile',
    flag: '--api-key-file <file>',
    parse: parsePath,
    help: 'a file holding the API key (safer than --api-key, which other users can see in ps)',
    commands: ['submit', 'poll', 'optimize'],
  }),
  setting({
    key: 'idempotencyKey',
    flag: '--idempotency-key <key>',
    parse: parseIdempotencyKey,
    help: {
      submit:
        'send this Idempotency-Key (1-255 visible ASCII characters) instead of a fresh random one: re-running the same submit with the same key gets the same action or project, never a second one',
      optimize:
        'send this Idempotency-Key (1-255 visible ASCII characters) instead of a fresh random one: re-running the same optimize with the same key gets the same action, never a second optimization',
    },
    commands: ['submit', 'optimize'],
  }),
  setting({
    key: 'wait',
    flag: '--wait',
    parse: parseSwitch,
    help: {
      submit: 'one-off problems: wait for the action to end and print the plan',
      optimize: 'wait for the optimization to end and print the plan',
    },
    commands: ['submit', 'optimize'],
  }),
  setting({
    key: 'once',
    flag: '--once',
    parse: parseSwitch,
    help: 'check once and print the status instead of waiting',
    commands: ['poll'],
  }),
  setting({
    key: 'timeoutMs',
    flag: '--timeout <seconds>',
    parse: inMilliseconds(numberIn({ min: 0, minInclusive: false }, 'seconds'), 1000, 1),
    default: DEFAULT_WAIT_SECONDS * 1000,
    help: {
      submit: `with --wait: give up after this long (default ${DEFAULT_WAIT_SECONDS})`,
      poll: `give up waiting after this long (default ${DEFAULT_WAIT_SECONDS})`,
      optimize: `with --wait: give up after this long (default ${DEFAULT_WAIT_SECONDS})`,
    },
    commands: ['submit', 'poll', 'optimize'],
  }),
] as const;

const OUTPUT = [
  setting({
    key: 'json',
    flag: '--json',
    parse: parseSwitch,
    help: {
      solve: 'print the plan as JSON (contract version 1) instead of tables',
      validate: 'print the result as JSON',
      submit: 'print the service response (or, with --wait, the plan) as JSON',
      poll: 'print the plan as JSON; with --once, always the action record (with its solution once finished)',
      optimize: 'print the service response (or, with --wait, the plan) as JSON',
      geocode: 'print what became of each address as JSON',
    },
    commands: ['solve', 'validate', 'submit', 'poll', 'optimize', 'geocode'],
  }),
  setting({
    key: 'output',
    flag: '-o, --output <file>',
    parse: parsePath,
    help: {
      solve: 'also write the plan to a file: .json, .geojson or .html',
      geocode: 'where to write the copy (never the input itself)',
    },
    commands: ['solve', 'geocode'],
    requiredIn: ['geocode'],
  }),
  setting({
    key: 'outputFormat',
    flag: '--output-format <format>',
    parse: textFor('a format'),
    help: 'format of --output: json, geojson or html (default: from the extension)',
    commands: ['solve'],
  }),
  setting({
    key: 'quiet',
    flag: '-q, --quiet',
    parse: parseSwitch,
    help: {
      solve: 'no spinner or warnings; no tables when the plan goes to a file',
      submit: 'no notes or warnings on stderr',
      poll: 'no progress notes on stderr',
      optimize: 'no notes on stderr',
    },
    commands: ['solve', 'submit', 'poll', 'optimize'],
  }),
  setting({
    key: 'color',
    flag: '--no-color',
    parse: parseSwitch,
    help: 'no colour in the output',
    commands: ['solve', 'validate', 'submit', 'poll', 'optimize', 'geocode'],
  }),
] as const;

/** What a command reads and how it searches: first in its help. */
export const COMMAND_INPUT_SETTINGS = [...INPUT, ...SEARCH] as const;
/** The service a client command talks to, and what it prints: last in its help. */
export const COMMAND_OUTPUT_SETTINGS = [...REMOTE, ...OUTPUT] as const;
