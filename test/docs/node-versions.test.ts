/**
 * The Node.js versions routeplan claims agree with each other and with its dependencies:
 * package.json's `engines` asks for what the production dependencies need (no more, no less), the
 * versions CI pins (.ci/node-versions) satisfy it and every installed package's own `engines`,
 * and the README names the lines CI runs on.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lowerBounds, satisfies } from '../support/node-range.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string): string => readFileSync(`${ROOT}${file}`, 'utf8');

const pkg = JSON.parse(read('package.json'));
const lock = JSON.parse(read('package-lock.json'));

/** The pinned versions by role (suite, smoke), from .ci/node-versions. */
function pinnedVersions(): Map<string, string> {
  const lines = read('.ci/node-versions')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  return new Map(lines.map((line) => line.split(/\s+/) as [string, string]));
}

interface LockedPackage {
  name: string;
  engines: string;
  dev: boolean;
}

/** Every package the lockfile installs on Linux x64 (CI's machine) that declares a Node range. */
function lockedEngines(): LockedPackage[] {
  const found: LockedPackage[] = [];
  for (const [path, entry] of Object.entries<any>(lock.packages)) {
    if (path === '' || typeof entry.engines?.node !== 'string') continue;
    if (entry.os !== undefined && !entry.os.includes('linux')) continue;
    if (entry.cpu !== undefined && !entry.cpu.includes('x64')) continue;
    found.push({ name: path.replace(/^.*node_modules\//, ''), engines: entry.engines.node, dev: entry.dev === true });
  }
  return found;
}

/** `>=a.b.c`, the only form engines takes here: its lowest version. */
function enginesMinimum(): string {
  const match = /^>=(\d+\.\d+\.\d+)$/.exec(pkg.engines.node);
  if (match === null) throw new Error(`package.json's engines.node should read ">=a.b.c", not "${pkg.engines.node}"`);
  return match[1]!;
}

describe('Node.js versions', () => {
  it('reads the ranges the lockfile holds as npm does', () => {
    expect(satisfies('22.12.0', '18 || 20 || >=22')).toBe(true);
    expect(satisfies('21.7.3', '18 || 20 || >=22')).toBe(false);
    expect(satisfies('22.13.0', '^20.19.0 || ^22.13.0 || >=24')).toBe(true);
    expect(satisfies('22.12.9', '^20.19.0 || ^22.13.0 || >=24')).toBe(false);
    expect(satisfies('23.11.0', '^20.19.0 || ^22.13.0 || >=24')).toBe(false);
    expect(satisfies('11.0.0', '10.* || >= 12.*')).toBe(false);
    expect(satisfies('20.11.9', '>= 20.12')).toBe(false);
    expect(satisfies('24.21.0', '*')).toBe(true);
    expect(lowerBounds('^18.18.0 || ^20.9.0 || >=21.1.0')).toEqual(['18.18.0', '20.9.0', '21.1.0']);
  });

  it('engines asks for the lowest version every production dependency accepts', () => {
    const production = lockedEngines().filter((entry) => !entry.dev);
    expect(production.map((entry) => entry.name)).toContain('pg-boss');
    const minimum = enginesMinimum();
    const refused = production.filter((entry) => !satisfies(minimum, entry.engines));
    expect(refused, `Node ${minimum} is refused by`).toEqual([]);
    // Any lower version that some dependency names as its floor is refused by another one.
    const lower = production.flatMap((entry) => lowerBounds(entry.engines)).filter((version) => satisfies(version, `<${minimum}`));
    const acceptedByAll = lower.filter((version) => production.every((entry) => satisfies(version, entry.engines)));
    expect(acceptedByAll, 'engines is stricter than the dependencies need').toEqual([]);
  });

  it('CI pins a suite and a smoke version; each satisfies engines and every installed package', () => {
    const pinned = pinnedVersions();
    expect([...pinned.keys()].sort()).toEqual(['smoke', 'suite']);
    for (const [role, version] of pinned) {
      expect(version, role).toMatch(/^\d+\.\d+\.\d+$/);
      expect(satisfies(version, pkg.engines.node), `${role} ${version} against engines ${pkg.engines.node}`).toBe(true);
      const refused = lockedEngines().filter((entry) => !satisfies(version, entry.engines));
      expect(refused, `Node ${version} (${role}) is refused by`).toEqual([]);
    }
  });

  it('the README names the Node lines CI runs on and the lowest version engines accepts', () => {
    const readme = read('README.md');
    const requirement = /Node\.js (\d+) \(([\d.]+) or later\) or (\d+)/.exec(readme);
    expect(requirement, 'the README should say "Node.js 22 (22.12 or later) or 24"').not.toBeNull();
    const [, suiteLine, floor, smokeLine] = requirement!;
    const pinned = pinnedVersions();
    expect(pinned.get('suite')!.split('.')[0]).toBe(suiteLine);
    expect(pinned.get('smoke')!.split('.')[0]).toBe(smokeLine);
    expect(`${floor}.0`).toBe(enginesMinimum());
  });
});
