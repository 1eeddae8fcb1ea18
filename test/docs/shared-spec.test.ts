/**
 * The repo keeps a copy of the interface and its decisions in docs/. When the shared copies beside
 * the repo change, this test fails until the change is taken in (code, tests, README) and copied.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

describe.runIf(existsSync(SHARED))('docs/ matches ../shared', () => {
  for (const file of ['decisions.md', 'interface.md']) {
    it(`docs/${file} is the same as ../shared/${file}`, () => {
      const shared = readFileSync(SHARED + file, 'utf8');
      const docs = readFileSync(DOCS + file, 'utf8');
      expect(docs === shared, `docs/${file} differs from ../shared/${file}: take the new rules in, then copy the file`).toBe(true);
    });
  }
});
