/**
 * The parsers of settings: each takes a value as a flag, an environment variable (both text) or a
 * configuration file (text, number or boolean) gives it, and returns the setting's value or the
 * problem with it. The settings table (settings.ts) names where the value came from in the error.
 */
/** A problem may keep the error it came from (`cause`), as errors made from caught ones do. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string; cause?: unknown };
export type Parser<T> = (value: unknown) => Parsed<T>;

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const problem = (text: string, cause?: unknown): { ok: false; problem: string; cause?: unknown } =>
  cause === undefined ? { ok: false, problem: text } : { ok: false, problem: text, cause };

/** The trimmed text, or null for anything else (a number in a file is not a URL or a path). */
function textOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return value;
  const text = textOf(value);
  if (text === null) return null;
  const number = Number(text);
  return Number.isNaN(number) ? null : number;
}

/** The one integer parser: a whole number from min to max (no max: at least min). */
export function integerIn(min: number, max?: number): Parser<number> {
  const expected = max === undefined ? `expected a whole number of at least ${min}` : `expected a whole number from ${min} to ${max}`;
  return (value) => {
    const number = toNumber(value);
    if (number === null || !Number.isInteger(number)) return problem(`${JSON.stringify(value)} is not a whole number; ${expected}`);
    if (number < min || (max !== undefined && number > max)) return problem(`${number} is out of range; ${expected}`);
    return ok(number);
  };
}

export interface NumberRange {
  min: number;
  minInclusive: boolean;
  /** No max: any number above min. */
  max?: number;
}

/** A number in the range, fractions allowed; `unit` says what it counts (seconds, km/h, …). */
export function numberIn(range: NumberRange, unit: string): Parser<number> {
  const above = range.minInclusive ? `at least ${range.min}` : `greater than ${range.min}`;
  const expected = `expected a number ${above}${range.max === undefined ? '' : ` and at most ${range.max}`} (${unit})`;
  return (value) => {
    const number = toNumber(value);
    if (number === null || !Number.isFinite(number)) return problem(`${JSON.stringify(value)} is not a number; ${expected}`);
    const tooLow = range.minInclusive ? number < range.min : number <= range.min;
    if (tooLow || (range.max !== undefined && number > range.max)) return problem(`${number} is out of range; ${expected}`);
    return ok(number);
  };
}

/** A duration given in a larger unit (seconds, hours, days) as whole milliseconds, at least `floorMs`. */
export function inMilliseconds(parse: Parser<number>, msPerUnit: number, floorMs = 0): Parser<number> {
  return (value) => {
    const parsed = parse(value);
    return parsed.ok ? ok(Math.max(floorMs, Math.round(parsed.value * msPerUnit))) : parsed;
  };
}

export interface UrlRule {
  /** e.g. ['http:', 'https:']. */
  protocols: readonly string[];
  example: string;
  /** The URL may carry a password: problems never repeat it. */
  secret?: boolean;
  /** A user name or password in it is refused (keys go elsewhere). */
  noCredentials?: boolean;
}

/** The URL, or why it is not one. */
function urlOrError(text: string): { url: URL } | { error: unknown } {
  try {
    return { url: new URL(text) };
  } catch (error) {
    return { error };
  }
}

/** The one URL parser: an absolute URL of one of the protocols, without trailing slashes (paths are appended to it). */
export function urlOf(rule: UrlRule): Parser<string> {
  return (value) => {
    const text = textOf(value);
    if (text === null) return problem(`expected a URL such as ${rule.example}`);
    const parsed = urlOrError(text);
    const trouble =
      'url' in parsed ? urlProblem(rule, value, parsed.url) : `"${String(value)}" is not a URL (expected e.g. ${rule.example})`;
    if (trouble === null) return ok(text.replace(/\/+$/, ''));
    // A secret URL is never repeated, nor is the parser's error, which holds it.
    if (rule.secret) return problem(`expected ${schemesText(rule)} URL, e.g. ${rule.example}`);
    return problem(trouble, 'error' in parsed ? parsed.error : undefined);
  };
}

function schemesText(rule: UrlRule): string {
  return `an ${rule.protocols.map((protocol) => `${protocol}//`).join(' or ')}`;
}

/** What is wrong with a URL that parsed, or null. */
function urlProblem(rule: UrlRule, value: unknown, url: URL): string | null {
  if (!rule.protocols.includes(url.protocol)) {
    return `"${String(value)}" must use ${rule.protocols.map((protocol) => protocol.replace(/:$/, '')).join(' or ')}`;
  }
  if (rule.noCredentials && (url.username !== '' || url.password !== ''))
    return 'credentials in the URL are not allowed; pass the key with `apiKey`';
  return null;
}

export const httpUrl = (example: string): Parser<string> => urlOf({ protocols: ['http:', 'https:'], example });

/**
 * Several URLs of one rule: a repeated flag gives a list; a variable or file gives one text,
 * separated by commas or spaces. None given is a problem; each is checked as urlOf checks one.
 */
export function urlListOf(rule: UrlRule): Parser<string[]> {
  const one = urlOf(rule);
  return (value) => {
    const texts = (Array.isArray(value) ? value : [value]).flatMap((item) => String(item).split(/[\s,]+/)).filter((text) => text !== '');
    if (texts.length === 0) return problem(`expected one or more URLs such as ${rule.example}`);
    const urls: string[] = [];
    for (const [index, text] of texts.entries()) {
      const parsed = one(text);
      if (!parsed.ok) return problem(texts.length > 1 ? `URL ${index + 1}: ${parsed.problem}` : parsed.problem, parsed.cause);
      urls.push(parsed.value);
    }
    return ok([...new Set(urls)]);
  };
}

/** A shared secret (a signing key): at least `min` characters, never repeated in a problem. */
export function secretOf(min: number): Parser<string> {
  return (value) => {
    const text = textOf(value);
    return text !== null && text.length >= min ? ok(text) : problem(`expected a secret of at least ${min} characters`);
  };
}

/** A routeplan service's base URL: http(s), without credentials (the API key is sent apart). */
export const serviceUrl = (example: string): Parser<string> => urlOf({ protocols: ['http:', 'https:'], example, noCredentials: true });

/** One of the names (case-insensitive); `what` names the kind, e.g. "a travel source". */
export function oneOf<T extends string>(names: readonly T[], what: string): Parser<T> {
  return (value) => {
    const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
    const name = names.find((candidate) => candidate === text);
    return name !== undefined ? ok(name) : problem(`${JSON.stringify(value)} is not ${what}; expected one of ${names.join(', ')}`);
  };
}

/** true/false, yes/no, on/off, 1/0 (a flag without a value gives true). */
export const parseSwitch: Parser<boolean> = (value) => {
  if (typeof value === 'boolean') return ok(value);
  const text = String(value).trim().toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(text)) return ok(true);
  if (['false', 'no', 'off', '0'].includes(text)) return ok(false);
  return problem(`${JSON.stringify(value)} is not a switch; expected true or false`);
};

/** Any non-empty text, trimmed. */
export function textFor(expected: string): Parser<string> {
  return (value) => {
    const text = textOf(value);
    return text !== null ? ok(text) : problem(`expected ${expected}`);
  };
}

export const parsePath = textFor('a file path');

export const parseEmail: Parser<string> = (value) => {
  const text = typeof value === 'string' ? value.trim() : '';
  return /^[^\s@<>]+@[^\s@<>]+$/.test(text) ? ok(text) : problem(`${JSON.stringify(value)} is not an e-mail address`);
};

export const parseProfile: Parser<string> = (value) => {
  const text = typeof value === 'string' ? value.trim() : '';
  return /^[A-Za-z0-9_.-]{1,64}$/.test(text)
    ? ok(text)
    : problem(`${JSON.stringify(value)} is not a profile name (e.g. driving, car, auto, truck)`);
};

/** A secret sent as `Authorization: Bearer <it>` (`what` names it in the problem): one word, never repeated. */
export function bearerSecret(what: string): Parser<string> {
  return (value) => {
    const text = textOf(value);
    if (text === null) return problem('expected a non-empty string');
    if (/\s/.test(text)) return problem(`${what} cannot contain spaces or line breaks`);
    return ok(text);
  };
}

export const parseApiKey: Parser<string> = bearerSecret('an API key');

/** Comma-separated keys; blanks are dropped. */
export const parseKeyList: Parser<string[]> = (value) =>
  ok(
    String(value)
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== ''),
  );

/** `10485760`, `512k`, `10m`, `10MB` → bytes. */
export const parseByteSize: Parser<number> = (value) => {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)i?b?\s*$/i.exec(String(value));
  const factor = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match?.[2] ?? '').toLowerCase() as '' | 'k' | 'm' | 'g'];
  const bytes = match ? Math.floor(Number(match[1]) * factor) : NaN;
  return Number.isFinite(bytes) && bytes >= 1 ? ok(bytes) : problem(`"${String(value)}" is not a size; expected e.g. 10m, 512k or 1048576`);
};

/** A PostgreSQL connection URL; never repeated in a problem (it carries the password). */
export const parsePostgresUrl: Parser<string> = (value) => {
  const text = textOf(value);
  return text !== null && /^postgres(ql)?:\/\//.test(text)
    ? ok(text)
    : problem('expected a PostgreSQL URL, postgres://user:password@host:5432/database');
};
