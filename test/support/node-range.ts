/**
 * The part of npm's version ranges that `engines.node` fields use, for test/docs/node-versions:
 * alternatives joined by `||`, each a list of comparators (`>=20.19.0`, `^22.13.0`, `~1.2`, `<24`)
 * or a partial version (`20`, `10.*`, `*`). Written apart from npm's semver so the test needs no
 * package it does not declare.
 */
type Version = [number, number, number];
/** A version as written: missing or wildcard parts are `null`. */
type Partial = [number | null, number | null, number | null];

function part(field: string | undefined): number | null {
  return field === undefined || field === '' || field === '*' || field === 'x' || field === 'X' ? null : Number(field);
}

function parts(text: string): Partial {
  const fields = text.replace(/^v/, '').split('.');
  return [part(fields[0]), part(fields[1]), part(fields[2])];
}

function full(partial: Partial): Version {
  return [partial[0] ?? 0, partial[1] ?? 0, partial[2] ?? 0];
}

function compare(a: Version, b: Version): number {
  for (let index = 0; index < 3; index += 1) if (a[index] !== b[index]) return a[index]! - b[index]!;
  return 0;
}

/** The version just above every version the partial one covers (`22` → 23.0.0, `22.13` → 22.14.0). */
function above(partial: Partial): Version {
  if (partial[0] === null) return [Infinity, 0, 0];
  if (partial[1] === null) return [partial[0] + 1, 0, 0];
  if (partial[2] === null) return [partial[0], partial[1] + 1, 0];
  return [partial[0], partial[1], partial[2] + 1];
}

/** `^` allows changes that leave the first non-zero part alone. */
function caretCeiling(partial: Partial): Version {
  const [major, minor] = full(partial);
  if (major > 0 || partial[1] === null) return above([partial[0], null, null]);
  if (minor > 0 || partial[2] === null) return above([major, minor, null]);
  return above(partial);
}

function comparatorHolds(version: Version, comparator: string): boolean {
  const [, operator = '', rest = ''] = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(comparator)!;
  const partial = parts(rest);
  const low = full(partial);
  switch (operator) {
    case '>=':
      return compare(version, low) >= 0;
    case '>':
      return compare(version, above(partial)) >= 0;
    case '<':
      return compare(version, low) < 0;
    case '<=':
      return compare(version, above(partial)) < 0;
    case '^':
      return compare(version, low) >= 0 && compare(version, caretCeiling(partial)) < 0;
    case '~':
      return compare(version, low) >= 0 && compare(version, above([partial[0], partial[1], null])) < 0;
    default:
      return compare(version, low) >= 0 && compare(version, above(partial)) < 0;
  }
}

/** The comparators of one alternative, an operator kept with its version (`>= 12` → `>=12`). */
function comparators(alternative: string): string[] {
  return alternative
    .trim()
    .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
    .split(/\s+/)
    .filter((comparator) => comparator !== '');
}

/** Whether `version` (a.b.c) is in `range`. */
export function satisfies(version: string, range: string): boolean {
  const exact = full(parts(version));
  return range.split('||').some((alternative) => comparators(alternative).every((comparator) => comparatorHolds(exact, comparator)));
}

/** The lowest version each alternative of `range` accepts (`^20.19.0 || >=22.12.0` → 20.19.0, 22.12.0). */
export function lowerBounds(range: string): string[] {
  return range.split('||').flatMap((alternative) => {
    const floor = comparators(alternative).find((comparator) => !comparator.startsWith('<'));
    return floor === undefined ? [] : [full(parts(floor.replace(/^(>=|>|=|\^|~)/, ''))).join('.')];
  });
}
