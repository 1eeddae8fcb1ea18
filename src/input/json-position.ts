import { MAX_NESTING, NESTING_REASON } from './nesting.js';

/**
 * Finds where JSON text first goes wrong. Node's JSON.parse does not always say where (e.g.
 * "Unexpected token ']'" for a trailing comma), and a file's author needs a line and column.
 * Only called after JSON.parse has failed.
 */

export interface JsonSyntaxProblem {
  offset: number;
  reason: string;
}

/** A field name given twice in one JSON object: JSON.parse keeps the last one silently. */
export interface JsonDuplicateKey {
  /** Path of the field, e.g. ['stops', 0, 'name']. */
  path: Array<string | number>;
  /** Offsets of the first and the repeated field name. */
  firstOffset: number;
  offset: number;
}

/** The scanner's way out of a deeply nested walk: carries where and why the text stops being JSON. */
class JsonSyntaxFailure extends Error {
  constructor(readonly problem: JsonSyntaxProblem) {
    super(problem.reason);
  }
}

const JSON_NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/** Space, tab, line feed, carriage return: JSON's whitespace. */
function isJsonSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

class Scanner {
  i = 0;
  readonly duplicates: JsonDuplicateKey[] = [];
  private readonly path: Array<string | number> = [];
  private depth = 0;
  constructor(private readonly text: string) {}

  fail(reason: string): never {
    throw new JsonSyntaxFailure({ offset: this.i, reason });
  }

  skipSpace(): void {
    const text = this.text;
    while (this.i < text.length && isJsonSpace(text.charCodeAt(this.i))) this.i++;
  }

  describeHere(): string {
    return this.i >= this.text.length ? 'the end of the file' : `"${this.text[this.i]}"`;
  }

  value(): void {
    this.skipSpace();
    const ch = this.text[this.i];
    if (ch === '{' || ch === '[') return this.container(ch);
    if (ch === '"') return this.string();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    this.fail(`expected a value but found ${this.describeHere()}`);
  }

  /** The scanner recurses once a level: past the limit the text is refused, not the stack overflowed. */
  container(open: '{' | '['): void {
    if (++this.depth > MAX_NESTING) this.fail(NESTING_REASON);
    if (open === '{') this.object();
    else this.array();
    this.depth--;
  }

  object(): void {
    this.i++;
    this.skipSpace();
    if (this.text[this.i] === '}') {
      this.i++;
      return;
    }
    const seen = new Map<string, number>();
    for (;;) {
      this.skipSpace();
      if (this.text[this.i] !== '"') {
        this.fail(
          this.text[this.i] === '}' ? 'trailing comma before "}"' : `expected a double-quoted field name but found ${this.describeHere()}`,
        );
      }
      const keyOffset = this.i;
      const key = this.fieldName();
      const first = seen.get(key);
      if (first !== undefined) this.duplicates.push({ path: [...this.path, key], firstOffset: first, offset: keyOffset });
      else seen.set(key, keyOffset);
      this.skipSpace();
      if (this.text[this.i] !== ':') this.fail(`expected ":" after the field name but found ${this.describeHere()}`);
      this.i++;
      this.path.push(key);
      this.value();
      this.path.pop();
      this.skipSpace();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === '}') {
        this.i++;
        return;
      }
      this.fail(`expected "," or "}" but found ${this.describeHere()}`);
    }
  }

  array(): void {
    this.i++;
    this.skipSpace();
    if (this.text[this.i] === ']') {
      this.i++;
      return;
    }
    for (let index = 0; ; index++) {
      this.skipSpace();
      if (this.text[this.i] === ']') this.fail('trailing comma before "]"');
      this.path.push(index);
      this.value();
      this.path.pop();
      this.skipSpace();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === ']') {
        this.i++;
        return;
      }
      this.fail(`expected "," or "]" but found ${this.describeHere()}`);
    }
  }

  fieldName(): string {
    const start = this.i;
    this.string();
    const raw = this.text.slice(start, this.i);
    // Most names have no escape to undo: JSON.parse of each took a good part of a large file's scan.
    if (!raw.includes('\\')) return raw.slice(1, -1);
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw;
    }
  }

  string(): void {
    this.i++;
    while (this.i < this.text.length) {
      const ch = this.text[this.i]!;
      if (ch === '"') {
        this.i++;
        return;
      }
      if (ch === '\n') this.fail('a string is not closed before the end of the line');
      this.i += ch === '\\' ? 2 : 1;
    }
    this.fail('a string is not closed');
  }

  number(): void {
    // Sticky, so the match starts here without copying the rest of the text for each number.
    JSON_NUMBER.lastIndex = this.i;
    const match = JSON_NUMBER.exec(this.text);
    if (!match) this.fail(`malformed number`);
    this.i += match[0].length;
  }

  document(): void {
    this.value();
    this.skipSpace();
    if (this.i < this.text.length) this.fail(`unexpected ${this.describeHere()} after the end of the JSON value`);
  }
}

/** The first syntax problem, or null when the scanner finds none (JSON.parse's own message then stands). */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  try {
    new Scanner(text).document();
    return null;
  } catch (problem) {
    if (problem instanceof JsonSyntaxFailure) return problem.problem;
    throw problem;
  }
}

/** Field names repeated inside one object, in text order. Call on text JSON.parse accepted, within the nesting limit. */
export function findJsonDuplicateKeys(text: string): JsonDuplicateKey[] {
  const scanner = new Scanner(text);
  try {
    scanner.document();
  } catch (problem) {
    if (problem instanceof JsonSyntaxFailure) return scanner.duplicates;
    throw problem;
  }
  return scanner.duplicates;
}

/** 0-based offset → 1-based line and column. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
