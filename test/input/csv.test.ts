import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { parseCsvRecords, parseCsvTable } from '../../src/input/csv.js';

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
