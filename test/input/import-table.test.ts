/**
 * Spreadsheet import: the column guesses (one table, column-names.ts, which the CLI's CSV tables
 * read too), CSV and XLSX bytes → a table of text, and rows → stops or drivers with the CLI's
 * own messages, by row and column.
 */
import { describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { parseCsvTable } from '../../src/csv/index.js';
import { COLUMN_CHOICES } from '../../src/input/column-names.js';
import { entriesFromTable } from '../../src/input/csv-tables.js';
import { convertRows, guessColumn, inspectTable, parseImportRequest } from '../../src/input/import-table.js';
import { readSpreadsheet } from '../../src/input/spreadsheet.js';
import { validateDocument } from '../../src/input/validate.js';
import { inputError, inputErrorAsync } from '../support/input-error.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('column guesses', () => {
  it.each([
    ['Customer', 'name'],
    ['client', 'name'],
    ['NAME', 'name'],
    ['Street address', 'address'],
    ['street_address', 'address'],
    ['Street-Address ', 'address'],
    ['Latitude', 'lat'],
    ['LAT', 'lat'],
    ['lon', 'lng'],
    ['Longitude', 'lng'],
    ['From', 'start'],
    ['opening', 'start'],
    ['Window start', 'start'],
    ['Until', 'end'],
    ['Closing', 'end'],
    ['window_end', 'end'],
    ['time_windows', 'time_windows'],
    ['Time Windows', 'time_windows'],
    ['Minutes', 'duration'],
    ['Service time', 'duration'],
    ['service-time', 'duration'],
    ['Qty', 'load'],
    ['Quantity', 'load'],
    ['Priority', 'priority'],
    ['Types', 'types'],
    ['tags', 'types'],
    ['Phone', 'phone_number'],
    ['E-mail', 'email'],
    ['Notes', 'notes'],
  ])('stops: %j → %s', (header, column) => {
    expect(guessColumn('stops', header)).toBe(column);
  });

  it('drivers: dispatchers’ words for a driver’s columns', () => {
    expect(['Driver', 'Depot', 'From', 'Until', 'Capacity', 'start lat', 'Lunch start'].map((h) => guessColumn('drivers', h))).toEqual([
      'name',
      'start_address',
      'shift_start',
      'shift_end',
      'capacity',
      'start_lat',
      'break_start',
    ]);
  });

  it('a column the CLI reads but the list does not offer keeps its name; an unknown one is left out', () => {
    expect(guessColumn('stops', 'load_weight')).toBe('load_weight');
    expect(guessColumn('stops', 'Account manager')).toBeNull();
    expect(guessColumn('stops', 'Ref')).toBeNull();
  });

  it('every choice is a column the CLI reads, and its synonyms fill the same field in the CLI', () => {
    for (const role of ['stops', 'drivers'] as const) {
      for (const { column, synonyms } of COLUMN_CHOICES[role]) {
        expect(guessColumn(role, column)).toBe(column);
        for (const synonym of synonyms) expect(guessColumn(role, synonym), synonym).toBe(column);
      }
    }
  });

  it('a word yields to the field’s own column: name and Company → Company is an unknown column, in the CLI and in the guesses', async () => {
    const text = 'Company,name,lat,lng\nAcme,Bakery,45.7,4.8\n';
    const read = entriesFromTable(parseCsvTable(text, 's.csv'), 'stops', 's.csv');
    expect(read.entries[0]).toEqual({ Company: 'Acme', name: 'Bakery', location: { coords: { lat: 45.7, lng: 4.8 } } });
    const inspected = inspectTable(await readSpreadsheet(bytes(text), 's.csv'), 'stops', 's.csv');
    expect(inspected.guesses).toEqual([null, 'name', 'lat', 'lng']);
    // Two words for one field: the first is guessed, the other left out.
    expect(inspectTable(await readSpreadsheet(bytes('Customer,Client\nA,B\n'), 'c.csv'), 'stops', 'c.csv').guesses).toEqual(['name', null]);
  });

  it('the CLI accepts the same synonyms in a project’s CSV table', () => {
    const table = parseCsvTable(
      'Customer,Street address,Latitude,Longitude,From,Until,Minutes,Qty\nBakery,1 rue X,45.7,4.8,08:00,10:00,5,3\n',
      's.csv',
    );
    const { entries } = entriesFromTable(table, 'stops', 's.csv');
    expect(entries[0]).toEqual({
      name: 'Bakery',
      location: { address: '1 rue X', coords: { lat: 45.7, lng: 4.8 } },
      start: '08:00',
      end: '10:00',
      duration: 5,
      load: 3,
    });
  });
});

describe('reading an uploaded spreadsheet', () => {
  it.each([
    [',', 'Customer,Lat,Lng\nA,45.7,4.8\n'],
    [';', 'Customer;Lat;Lng\r\nA;45,7;4,8\r\n'],
    ['\t', 'Customer\tLat\tLng\nA\t45.7\t4.8\n'],
  ])('CSV separated by %j', async (delimiter, text) => {
    const sheet = await readSpreadsheet(bytes(text), 'up.csv');
    expect(sheet).toMatchObject({ format: 'csv', delimiter, header: ['Customer', 'Lat', 'Lng'] });
    expect(sheet.records[0]!.row).toBe(2);
  });

  it('a Windows-1252 CSV (Excel on Windows) reads its accents', async () => {
    const sheet = await readSpreadsheet(Uint8Array.from([...bytes('name\nCaf'), 0xe9, 0x0a]), 'w.csv');
    expect(sheet.records[0]!.cells).toEqual(['Café']);
  });

  it('XLSX: the first sheet, numbers as text, a time-formatted cell as HH:mm', async () => {
    const workbook = await writeXlsxFile([
      [{ value: 'Customer' }, { value: 'From' }, { value: 'Qty' }, { value: 'Lat' }],
      [{ value: 'A' }, { value: new Date(Date.UTC(1899, 11, 30, 8, 30)), format: 'hh:mm' }, { value: 3 }, { value: 45.75 }],
      [{ value: 'B' }, { value: '09:00' }, null, { value: 4.5 }],
    ]).toBuffer();
    const sheet = await readSpreadsheet(workbook, 'up.xlsx');
    expect(sheet.format).toBe('xlsx');
    expect(sheet.header).toEqual(['Customer', 'From', 'Qty', 'Lat']);
    expect(sheet.records.map((r) => r.cells)).toEqual([
      ['A', '08:30', '3', '45.75'],
      ['B', '09:00', '', '4.5'],
    ]);
  });

  it('refuses empty files, garbage bytes, a broken ZIP and an old .xls, saying what to upload', async () => {
    expect((await inputErrorAsync(() => readSpreadsheet(new Uint8Array(), 'e.csv'))).code).toBe('empty_file');
    expect((await inputErrorAsync(() => readSpreadsheet(bytes('\n\n'), 'e.csv'))).code).toBe('empty_file');
    const garbage = await inputErrorAsync(() => readSpreadsheet(Uint8Array.from([1, 2, 3, 0, 200, 100, 7]), 'g.bin'));
    expect(garbage.code).toBe('not_a_spreadsheet');
    expect(garbage.message).toContain('upload a CSV file');
    expect((await inputErrorAsync(() => readSpreadsheet(Uint8Array.from([0x50, 0x4b, 3, 4, 9, 9]), 'z.xlsx'))).message).toContain(
      'no readable XLSX workbook',
    );
    expect((await inputErrorAsync(() => readSpreadsheet(Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0]), 'o.xls'))).message).toContain('.xls');
  });

  it('inspects a table: rows padded to the header, a guess per column, and the limit of 5,000 stops', async () => {
    const inspected = inspectTable(await readSpreadsheet(bytes('Customer,Ref,Qty\nA,x\n'), 'a.csv'), 'stops', 'a.csv');
    expect(inspected.guesses).toEqual(['name', null, 'load']);
    expect(inspected.rows).toEqual([{ row: 2, cells: ['A', 'x', ''] }]);
    const many = `name,lat,lng\n${'A,45,4\n'.repeat(5001)}`;
    const error = inputError(() => inspectTable({ ...parseCsvTable(many, 'm.csv'), format: 'csv' }, 'stops', 'm.csv'));
    expect(error.message).toBe('m.csv has 5,001 entries; at most 5,000 stops are allowed');
    const drivers = `name\n${'D\n'.repeat(501)}`;
    expect(inputError(() => inspectTable({ ...parseCsvTable(drivers, 'd.csv'), format: 'csv' }, 'drivers', 'd.csv')).message).toContain(
      'at most 500 vehicles',
    );
  });
});

describe('rows → stops, with the CLI’s messages by row and column', () => {
  const header = ['Customer', 'Lat', 'Lng', 'From', 'Until', 'Minutes', 'Kind'];
  const rows = [
    { row: 2, cells: ['Bakery', '45.76', '4.83', '08:00', '10:00', '5', 'x'] },
    { row: 3, cells: ['Café', '45.77', '4.84', '10h30', '11:00', '5', 'y'] },
  ];
  const request = (columns: (string | null)[]) => parseImportRequest({ file: 'stops.csv', header, columns, rows }, 'stops');

  it('reads the mapped columns, leaves out the ignored one, and names a bad cell by its row and header', () => {
    const converted = convertRows(request(['name', 'lat', 'lng', 'start', 'end', 'duration', null]), {});
    expect(converted.items[0]).toEqual({
      row: 2,
      item: { name: 'Bakery', location: { coords: { lat: 45.76, lng: 4.83 } }, start: '08:00', end: '10:00', duration: 5 },
    });
    expect(converted.problems).toHaveLength(1);
    const [problem] = converted.problems;
    expect(problem).toMatchObject({ row: 3, column: 'From', path: 'stops.csv row 3, column From' });
    // The message `routeplan validate` prints for the same cell of a project's CSV table.
    const cli = inputError(() =>
      validateDocument(
        { name: 'p', date: '2024-05-14', stops: [{ name: 'Café', location: { coords: { lat: 45.77, lng: 4.84 } }, start: '10h30' }] },
        { expect: 'project' },
      ),
    );
    expect(problem!.message).toBe(cli.details[0]!.message);
  });

  it('two columns read as one field are a problem of the table, not of a row', () => {
    const converted = convertRows(request(['name', 'lat', 'lng', 'start', 'start', null, null]), {});
    expect(converted.problems).toEqual([
      expect.objectContaining({ row: null, message: expect.stringContaining('columns "From" and "Until" both give start') }),
    ]);
  });

  it('an address without coordinates is an error without a geocoder, as in the CLI, and fine when the service geocodes', () => {
    const addressed = parseImportRequest(
      { header: ['name', 'address'], columns: ['name', 'address'], rows: [{ row: 2, cells: ['A', '1 rue X'] }] },
      'stops',
    );
    expect(convertRows(addressed, {}).problems[0]).toMatchObject({ row: 2, column: 'address' });
    expect(convertRows(addressed, { addressesGeocodedElsewhere: true }).problems).toEqual([]);
  });

  it('a lock (driver column) is checked against the driver names the page has, as in a whole project', () => {
    const locked = (driverNames?: string[]) =>
      parseImportRequest(
        {
          header: ['name', 'lat', 'lng', 'Driver'],
          columns: ['name', 'lat', 'lng', 'driver'],
          rows: [{ row: 2, cells: ['A', '45.7', '4.8', 'Camille'] }],
          ...(driverNames ? { driver_names: driverNames } : {}),
        },
        'stops',
      );
    expect(convertRows(locked(['Théo', 'Camille']), {})).toMatchObject({ problems: [], warnings: [] });
    expect(convertRows(locked(), {}).problems).toEqual([
      expect.objectContaining({
        row: 2,
        column: 'Driver',
        message: expect.stringContaining('the project has no driver to lock the stop to'),
      }),
    ]);
    expect(convertRows(locked(['Théo']), {}).problems[0]!.message).toContain('use the name of one of the project\'s drivers: "Théo"');
  });

  it('a malformed request is refused with the paths of what is wrong', () => {
    expect(inputError(() => parseImportRequest({ header: ['a'], columns: ['nonsense'], rows: [] }, 'stops')).details).toEqual([
      { path: 'columns[0]', message: expect.stringContaining('"nonsense" is no column of stops') },
    ]);
    expect(inputError(() => parseImportRequest({ header: ['a', 'b'], columns: ['name'], rows: [] }, 'stops')).details[0]!.path).toBe(
      'columns',
    );
    expect(inputError(() => parseImportRequest({ header: [], rows: 3 }, 'stops')).details.map((d) => d.path)).toEqual(
      expect.arrayContaining(['header', 'columns', 'rows']),
    );
  });
});
