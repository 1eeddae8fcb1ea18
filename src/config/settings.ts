/**
 * The settings table: every setting of every command, one row each (setting.ts says what a row
 * holds). The rows live in three files by kind; this is the one list the flags, the variables,
 * the configuration files, the help and the settings' types are built from.
 *
 * Adding a setting is adding a row: to shared-settings.ts when a configuration file may hold it,
 * serve-settings.ts when only `serve` takes it, command-settings.ts for a command's own run. The
 * commands listed in it get the flag, their resolved settings get the key, and when it has a
 * variable or a file key, test/docs/settings-table.test.ts prints the README line to add.
 */
import { COMMAND_INPUT_SETTINGS, COMMAND_OUTPUT_SETTINGS } from './command-settings.js';
import { SERVE_SETTINGS } from './serve-settings.js';
import type { AnySetting, CommandName, DefaultedSettingsOf, SettingsOf } from './setting.js';
import { SHARED_SETTINGS } from './shared-settings.js';

/** In the order of the commands' help. */
export const SETTINGS = [...SERVE_SETTINGS, ...COMMAND_INPUT_SETTINGS, ...SHARED_SETTINGS, ...COMMAND_OUTPUT_SETTINGS] as const;

/** Every setting, resolved: each one given by a layer or its default, else absent. */
export type RouteplanConfig = SettingsOf<typeof SETTINGS>;
export type ConfigKey = keyof RouteplanConfig;
/** The settings of a command: every setting with a default has a value. */
export type CommandConfig = DefaultedSettingsOf<typeof SETTINGS>;

const ROWS: readonly AnySetting[] = SETTINGS;

export function settingRow(key: ConfigKey): AnySetting {
  const row = ROWS.find((entry) => entry.key === key);
  if (row === undefined) throw new Error(`unknown setting ${key}`);
  return row;
}

/** The rows whose flags the command has, in table order. */
export function flagRowsOf(command: CommandName): AnySetting[] {
  return ROWS.filter((row) => row.flag !== undefined && row.commands.includes(command));
}

/**
 * The rows a command resolves: every configuration-file setting (a broken file or variable is
 * reported wherever it is read), and the command's own. Without a command: the file settings.
 */
export function resolvedRowsOf(command?: CommandName): AnySetting[] {
  return ROWS.filter((row) => row.file !== undefined || (command !== undefined && row.commands.includes(command)));
}

export function fileRows(): AnySetting[] {
  return ROWS.filter((row) => row.file !== undefined);
}

/** The flag's long name as the user types it: `--seed`, `--no-cache`. */
export function flagName(row: AnySetting): string | undefined {
  return row.flag?.split(/[ ,]+/).find((part) => part.startsWith('--'));
}
