/**
 * One row of the settings table (settings.ts): where a setting may be given (flag, environment
 * variable, configuration file), how its text is parsed, its default and its help, and which
 * commands take it. Adding a setting is adding a row; the commands build their options from the
 * rows (cli/options.ts) and config.ts resolves every row the same way.
 */
import type { Parser } from './parse.js';

export type CommandName = 'solve' | 'validate' | 'submit' | 'poll' | 'optimize' | 'serve' | 'geocode';

export interface Setting<K extends string = string, T = unknown> {
  /** Its name in the resolved settings (and, camelCased, in configuration files). */
  key: K;
  /** As commander spells it: `--seed <n>`, `-q, --quiet`, `--no-cache`. None: not a flag. */
  flag?: string;
  /** e.g. ROUTEPLAN_SEED. */
  env?: string;
  /** The key in configuration files (snake_case). A setting with one is read and checked by every command. */
  file?: string;
  parse: Parser<T>;
  /** When no layer gives it. */
  default?: T;
  /** The flag's help, or per command where it means something different there. */
  help: string | Partial<Record<CommandName, string>>;
  /** The commands that take the flag (and, without a file key, read the variable). */
  commands: readonly CommandName[];
  /** Commands where the flag must be given. */
  requiredIn?: readonly CommandName[];
}

/** A row, with its key, its value type and whether it has a default kept for the settings' types. */
export function setting<K extends string, T>(row: Setting<K, T> & { default: T }): Setting<K, T> & { default: T };
export function setting<K extends string, T>(row: Setting<K, T>): Setting<K, T>;
export function setting<K extends string, T>(row: Setting<K, T>): Setting<K, T> {
  return row;
}

export type AnySetting = Setting<string, unknown>;

/** The settings a table's rows resolve to, each optional (a layer may give it or not). */
export type SettingsOf<Rows extends readonly AnySetting[]> = {
  [Row in Rows[number] as Row['key']]?: Row extends Setting<string, infer T> ? T : never;
};

/** The same, where every setting with a default has a value. */
export type DefaultedSettingsOf<Rows extends readonly AnySetting[]> = SettingsOf<Rows> & {
  [Row in Rows[number] as Row extends { default: unknown } ? Row['key'] : never]-?: Row extends Setting<string, infer T> ? T : never;
};

/** The row's help for this command. */
export function helpFor(row: AnySetting, command: CommandName): string {
  return typeof row.help === 'string' ? row.help : (row.help[command] ?? Object.values(row.help)[0] ?? '');
}
