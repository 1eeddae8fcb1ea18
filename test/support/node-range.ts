/**
 * Node version ranges as `engines` fields write them, read by npm's own `semver`, for
 * test/docs/node-versions.
 */
import semver from 'semver';

export function satisfies(version: string, range: string): boolean {
  return semver.satisfies(version, range);
}

/** The lowest version each `||` alternative of a range accepts; alternatives with no floor (`<24`) give none. */
export function lowerBounds(range: string): string[] {
  return range.split('||').flatMap((alternative) => {
    const floor = semver.minVersion(alternative.trim());
    return floor === null || floor.version === '0.0.0' ? [] : [floor.version];
  });
}
