/**
 * The README's table of settings is the settings table's (src/config/settings.ts): every setting
 * that an environment variable or a configuration file may give, with its flag and commands. When
 * a row changes, this test fails and prints the table to paste into the README.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTINGS, flagName } from '../../src/config/settings.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

function cell(text: string | undefined): string {
  return text === undefined ? '—' : `\`${text}\``;
}

function settingsTable(): string {
  const rows = SETTINGS.filter((row) => row.env !== undefined || row.file !== undefined).map((row) =>
    [cell(flagName(row)), cell(row.env), cell(row.file), row.commands.join(', ')].join(' | '),
  );
  return ['| flag | environment | configuration file | commands |', '| --- | --- | --- | --- |', ...rows.map((row) => `| ${row} |`)].join(
    '\n',
  );
}

describe('README', () => {
  it('lists every setting of the environment and the configuration files, as the settings table has them', () => {
    const table = settingsTable();
    expect(readFileSync(README, 'utf8').includes(table), `the README's table of settings should be:\n\n${table}\n`).toBe(true);
  });
});
