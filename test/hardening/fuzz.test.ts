/**
 * A seeded fuzzer (issue 10): generated projects and one-off requests, mutated a few thousand
 * times (fields removed, retyped, set to odd values, prototype-named keys, nesting, huge strings),
 * loaded in process. Each must load or be refused with an InputError whose every detail names a
 * path: never an internal error, never a hang. Bounded to a few seconds of CI time.
 */
import { describe, expect, it } from 'vitest';
import { loadProblemDocument } from '../../src/input/index.js';
import { InputError } from '../../src/errors.js';
import { Random, generateOneOff, generateProject } from '../support/generate.js';

const DOCUMENTS = Number(process.env.FUZZ_DOCUMENTS ?? 3_000);
// A hang guard, not a speed target: a document that takes this long has hit something quadratic.
const SLOW_MS = 5_000;

const ODD_VALUES: unknown[] = [
  null,
  -1,
  0,
  1e308,
  -1e308,
  3.5,
  '',
  ' ',
  'x'.repeat(10_000),
  '25:30',
  '99:99',
  '2024-02-30',
  '\u001b[2J',
  true,
  false,
  {},
  [],
  [null],
  [{}],
  { lat: 91, lng: 181 },
  { constructor: { a: 1 } },
  'NaN',
  'Infinity',
];

const ODD_KEYS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', '', ' ', 'stop', 'orders', 'date'];

/** Every object and array of the document, with where it is. */
function containers(value: unknown, out: (Record<string, unknown> | unknown[])[] = []): (Record<string, unknown> | unknown[])[] {
  if (typeof value === 'object' && value !== null) {
    out.push(value as Record<string, unknown>);
    for (const child of Object.values(value as Record<string, unknown>)) containers(child, out);
  }
  return out;
}

function mutate(document: unknown, rng: Random): unknown {
  const copy = structuredClone(document) as Record<string, unknown>;
  const mutations = rng.int(1, 4);
  for (let m = 0; m < mutations; m++) {
    const targets = containers(copy);
    const target = rng.pick(targets);
    const keys = Object.keys(target);
    const choice = rng.int(0, 5);
    if (choice === 0 && keys.length > 0) {
      if (Array.isArray(target)) target.splice(Number(rng.pick(keys)), 1);
      else delete target[rng.pick(keys)];
    } else if (choice === 1 && keys.length > 0) {
      (target as Record<string, unknown>)[rng.pick(keys)] = structuredClone(rng.pick(ODD_VALUES));
    } else if (choice === 2 && !Array.isArray(target)) {
      // JSON.parse makes even `__proto__` an own key, as a request body would.
      Object.assign(target, JSON.parse(`{${JSON.stringify(rng.pick(ODD_KEYS))}: ${JSON.stringify(rng.pick(ODD_VALUES))}}`));
    } else if (choice === 3 && Array.isArray(target) && target.length > 0) {
      target.push(structuredClone(rng.pick(target)));
    } else if (choice === 4 && keys.length > 0) {
      let nested: unknown = structuredClone(rng.pick(ODD_VALUES));
      for (let depth = rng.int(1, 60); depth > 0; depth--) nested = rng.chance(0.5) ? [nested] : { a: nested };
      (target as Record<string, unknown>)[rng.pick(keys)] = nested;
    } else if (keys.length > 0) {
      const key = rng.pick(keys);
      const value = (target as Record<string, unknown>)[key];
      (target as Record<string, unknown>)[key] =
        typeof value === 'string' ? value.split('').reverse().join('') : (JSON.stringify(value) ?? 'undefined');
    }
  }
  return copy;
}

describe('the fuzzer', () => {
  it(`${DOCUMENTS} mutated documents: no internal error, no hang, every error names a path`, () => {
    const rng = new Random(20261124);
    const internal: string[] = [];
    const pathless: string[] = [];
    let refused = 0;
    let slowest = 0;
    for (let i = 0; i < DOCUMENTS; i++) {
      const seed = rng.int(1, 1_000_000);
      const base = rng.chance(0.5) ? generateProject(seed, { stops: rng.int(3, 15) }) : generateOneOff(seed, { stops: rng.int(3, 15) });
      const document = mutate(base, rng);
      const started = performance.now();
      try {
        loadProblemDocument(document);
      } catch (error) {
        if (!(error instanceof InputError))
          internal.push(`#${i} seed ${seed}: ${(error as Error).stack?.split('\n').slice(0, 3).join(' | ')}`);
        else {
          refused++;
          if (error.details.length === 0 || error.details.some((detail) => typeof detail.path !== 'string' || detail.path === '')) {
            pathless.push(`#${i}: ${error.message}`);
          }
        }
      }
      slowest = Math.max(slowest, performance.now() - started);
    }
    expect(internal.slice(0, 10)).toEqual([]);
    expect(pathless.slice(0, 10)).toEqual([]);
    expect(slowest).toBeLessThan(SLOW_MS);
    // Most mutations break something: the fuzzer must actually reach the validator's errors.
    expect(refused).toBeGreaterThan(DOCUMENTS / 3);
  }, 120_000);
});
