import { afterEach, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/errors.js';
import { csvRow, detectDelimiter, parseCsvRecords, parseCsvTable } from '../../src/csv/index.js';
import { entriesFromTable } from '../../src/input/csv-tables.js';
import { loadProblemFile } from '../../src/input/index.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/csv/', import.meta.url));
const cleanups: string[] = [];
afterEach(async () => {
  for (const dir of cleanups.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('CSV reader (RFC 4180)', () => {
  it('splits plain fields on commas and lines', () => {
    expect(parseCsvRecords('a,b,c\n1,2,3\n', 'f.csv')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('quoted fields keep embedded commas, doubled quotes and line breaks', () => {
    const text = 'name,notes\n"Bistrot ""Le Canut""","code 12, porte B\nsecond line"\n';
    expect(parseCsvRecords(text, 'f.csv')).toEqual([
      ['name', 'notes'],
      ['Bistrot "Le Canut"', 'code 12, porte B\nsecond line'],
    ]);
  });

  it('CRLF line ends are one line break, also inside a quoted field they are kept', () => {
    expect(parseCsvRecords('a,b\r\n1,"x\r\ny"\r\n', 'f.csv')).toEqual([
      ['a', 'b'],
      ['1', 'x\r\ny'],
    ]);
  });

  it('a leading byte-order mark is not part of the first column name', () => {
    const table = parseCsvTable('\uFEFFname,lat\nA,45\n', 'f.csv');
    expect(table.header).toEqual(['name', 'lat']);
  });

  it('empty fields and a last line without a line break are read', () => {
    expect(parseCsvRecords('a,,c\n,,', 'f.csv')).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
    ]);
  });

  it('an unterminated quoted field is an error naming the file and row', () => {
    const error = (() => {
      try {
        parseCsvRecords('a,b\n1,"open\n2,3\n', 'stops.csv');
      } catch (e) {
        return e as InputError;
      }
      throw new Error('accepted');
    })();
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain('stops.csv row 2');
  });

  it('row numbers are spreadsheet rows: the header is row 1 and blank lines still count', () => {
    const table = parseCsvTable('name\nA\n\nB\n', 'f.csv');
    expect(table.records.map((r) => r.row)).toEqual([2, 4]);
  });

  it('a row with more cells than the header is an error naming its row', () => {
    expect(() => parseCsvTable('name,lat\nA,45,extra\n', 'stops.csv')).toThrow(/stops\.csv row 2/);
  });

  it('an empty table asks for a header row', () => {
    expect(() => parseCsvTable('\n\n', 'stops.csv')).toThrow(/header row/);
  });

  it('a duplicated column name is an error', () => {
    expect(() => parseCsvTable('name,lat,lat\nA,1,2\n', 'stops.csv')).toThrow(/appears twice/);
  });
});

describe('delimiters and decimal commas, as European spreadsheets export them', () => {
  /** The fixture's tables rewritten with `delimiter` and, when asked, decimal commas. */
  async function fixtureWith(delimiter: ';' | '\t', decimalCommas: boolean): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'routeplan-csv-delim-'));
    cleanups.push(dir);
    await copyFile(join(FIXTURES, 'project.yaml'), join(dir, 'project.yaml'));
    for (const name of ['stops.csv', 'drivers.csv']) {
      const rows = parseCsvRecords(await readFile(join(FIXTURES, name), 'utf8'), name);
      const cells = rows.map((row) => row.map((cell) => (decimalCommas && /^\d+\.\d+$/.test(cell) ? cell.replace('.', ',') : cell)));
      await writeFile(join(dir, name), `${cells.map((row) => csvRow(row, delimiter)).join('\r\n')}\r\n`);
    }
    return join(dir, 'project.yaml');
  }

  it('the delimiter is the one the header row uses: comma, semicolon or tab', () => {
    expect(detectDelimiter('name,lat,lng\n')).toBe(',');
    expect(detectDelimiter('\uFEFFname;lat;lng\r\n"A, B";45,1;4,8\r\n')).toBe(';');
    expect(detectDelimiter('name\tlat\tlng\n')).toBe('\t');
    expect(detectDelimiter('\n\nname\n')).toBe(',');
    expect(parseCsvTable('name;lat\n"A; B";45\n', 's.csv').records[0]!.cells).toEqual(['A; B', '45']);
  });

  it('a semicolon-separated project with decimal commas loads as the comma one does, with a warning saying how numbers were read', async () => {
    const original = await loadProblemFile(join(FIXTURES, 'project.yaml'));
    const european = await loadProblemFile(await fixtureWith(';', true));
    expect(european.problem).toEqual(original.problem);
    expect(european.warnings.map((warning) => warning.path)).toEqual(['stops.csv', 'drivers.csv']);
    expect(european.warnings[0]!.message).toMatch(
      /^the table is separated by semicolons and its numbers have decimal commas \(row 2, column lat: "45,7752"\); they were read as 45\.7752/,
    );
  });

  it('a tab-separated project without decimal commas loads the same, with no warning', async () => {
    const original = await loadProblemFile(join(FIXTURES, 'project.yaml'));
    const tabbed = await loadProblemFile(await fixtureWith('\t', false));
    expect(tabbed.problem).toEqual(original.problem);
    expect(tabbed.warnings).toEqual(original.warnings);
  });

  it('a decimal comma in a comma-separated table is an error naming the cell (decimal or thousands?)', () => {
    const table = parseCsvTable('name,lat,lng\nA,"45,75",4.8\nB,45.7,"4,81"\n', 'stops.csv');
    const error = (() => {
      try {
        entriesFromTable(table, 'stops', 'stops.csv');
      } catch (caught) {
        return caught as InputError;
      }
      throw new Error('accepted');
    })();
    expect(error.details).toEqual([
      {
        path: 'stops.csv row 2, column lat',
        message: '"45,75" has a decimal comma in a comma-separated table; write 45.75 (or save the table separated by semicolons)',
      },
      {
        path: 'stops.csv row 3, column lng',
        message: '"4,81" has a decimal comma in a comma-separated table; write 4.81 (or save the table separated by semicolons)',
      },
    ]);
  });

  it('text columns keep their commas: only number columns read a decimal comma', () => {
    const { entries } = entriesFromTable(parseCsvTable('name;lat;lng;notes\nA;45,5;4,8;12,5\n', 's.csv'), 'stops', 's.csv');
    expect(entries[0]).toMatchObject({ name: 'A', notes: '12,5' });
  });
});
