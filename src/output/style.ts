/** Minimal ANSI styling; every function is the identity when colour is off. */

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
}

const wrap =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

const identity = (text: string): string => text;

/**
 * Text from the input as a terminal may show it: control characters (an ESC sequence in a stop's
 * name can retitle or clear the terminal) become visible escapes such as \x1b. JSON output keeps
 * names exactly as given; only what is printed for people passes through here.
 */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export function makeStyle(color: boolean): Style {
  if (!color) {
    return { bold: identity, dim: identity, red: identity, yellow: identity, green: identity, cyan: identity };
  }
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
  };
}
