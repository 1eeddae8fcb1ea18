/** Line-level helpers shared by the benchmark parsers: every error names its 1-based line. */
import { InputError } from '../../errors.js';

export interface TextLine {
  /** 1-based line number in the original text. */
  number: number;
  /** The line without its terminator and surrounding whitespace. */
  text: string;
}

/** Splits on LF, CRLF or a lone CR, so Solomon (CRLF) and Homberger (LF) files read the same. */
export function splitLines(text: string): TextLine[] {
  return text.split(/\r\n|\n|\r/).map((line, i) => ({ number: i + 1, text: line.trim() }));
}

export function tokensOf(line: TextLine): string[] {
  return line.text.length === 0 ? [] : line.text.split(/\s+/);
}

const NUMBER_PATTERN = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export function isNumberToken(token: string): boolean {
  return NUMBER_PATTERN.test(token);
}

export function lineError(instance: string, line: TextLine | number, message: string): InputError {
  const number = typeof line === 'number' ? line : line.number;
  return new InputError(`${instance}: line ${number}: ${message}`, [{ path: `line ${number}`, message }]);
}

/** Parses every token of `line` as a number; `fields` names them and fixes the exact count. */
export function numbersOn(instance: string, line: TextLine, fields: readonly string[]): number[] {
  const tokens = tokensOf(line);
  if (tokens.length !== fields.length) {
    throw lineError(
      instance,
      line,
      `expected ${fields.length} numbers (${fields.join(', ')}), found ${tokens.length} fields: "${line.text}"`,
    );
  }
  return tokens.map((token, i) => {
    if (!isNumberToken(token)) throw lineError(instance, line, `${fields[i]} is not a number: "${token}"`);
    return Number(token);
  });
}
