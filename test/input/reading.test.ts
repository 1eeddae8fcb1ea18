import { mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadProblemDocument, loadProblemFile } from '../../src/input/index.js';
import { detailAt, inputError, inputErrorAsync, oneoff, project } from './helpers.js';

function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'routeplan-input-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const PROJECT_YAML = `name: Fromagerie
date: 2024-06-03
drivers: drivers.csv
stops: stops.csv
`;
const DRIVERS_CSV = 'name,start_lat,start_lng,shift_start,shift_end,capacity,types\nNadia,45.7746,4.8318,07:30,15:30,40,van;cold\n';

afterEach(() => vi.restoreAllMocks());

describe('reading files', () => {
  it('reads JSON by its .json extension', async () => {
    const dir = tempDir({ 'p.json': JSON.stringify(project()) });
    expect((await loadProblemFile(join(dir, 'p.json'))).kind).toBe('project');
  });

  it('reads YAML by its .yaml or .yml extension', async () => {
    const yaml = 'routesData:\n  - name: Van\n    constraints:\n      startLocations: [{latitude: 45.7, longitude: 4.8}]\nordersData: []\n';
    const dir = tempDir({ 'a.yaml': yaml, 'b.yml': yaml });
    expect((await loadProblemFile(join(dir, 'a.yaml'))).kind).toBe('oneoff');
    expect((await loadProblemFile(join(dir, 'b.yml'))).kind).toBe('oneoff');
  });

  it('YAML clock times and dates stay text (YAML 1.2: 08:00 is not a number of minutes)', async () => {
    const dir = tempDir({
      'p.yaml':
        'name: P\ndate: 2024-05-14\ndrivers: []\nstops:\n  - name: A\n    location: {coords: {lat: 45.7, lng: 4.8}}\n    start: 08:00\n',
    });
    const loaded = await loadProblemFile(join(dir, 'p.yaml'));
    expect(loaded.problem.date).toBe('2024-05-14');
    expect(loaded.problem.stops[0]!.windows[0]!.start).toBe(8 * 3600);
  });

  it('a file that does not exist is an InputError, not a stack trace', async () => {
    const error = await inputErrorAsync(() => loadProblemFile('/no/such/dir/problem.json'));
    expect(error.message).toBe('Cannot read /no/such/dir/problem.json: no such file');
  });

  it('a read or parse error keeps the original error as its cause', async () => {
    const missing = await inputErrorAsync(() => loadProblemFile('/no/such/dir/problem.json'));
    expect(missing.cause).toMatchObject({ code: 'ENOENT', path: '/no/such/dir/problem.json' });

    const dir = tempDir({ 'p.json': '{"name": "P",}' });
    const invalid = await inputErrorAsync(() => loadProblemFile(join(dir, 'p.json')));
    expect(invalid.code).toBe('invalid_json');
    expect(invalid.cause).toBeInstanceOf(SyntaxError);
  });

  it('a directory is not a problem file', async () => {
    const dir = tempDir({});
    const error = await inputErrorAsync(() => loadProblemFile(dir, { format: 'json' }));
    expect(error.message).toMatch(/it is a directory/);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file is an InputError', async () => {
    const dir = tempDir({ 'p.json': '{}' });
    chmodSync(join(dir, 'p.json'), 0o000);
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'p.json')));
    expect(error.message).toMatch(/permission denied/);
  });

  it('JSON syntax errors give line and column', async () => {
    const dir = tempDir({ 'p.json': '{\n  "name": "P",\n  "date": "2024-05-14",\n  "stops": [1,]\n}\n' });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'p.json')));
    expect(error.message).toMatch(/invalid JSON at line 4, column 15: trailing comma before "\]"/);
    expect(error.code).toBe('invalid_json');
  });

  it('JSON syntax errors name an unquoted field name with its line', async () => {
    const dir = tempDir({ 'p.json': '{\n  name: "P"\n}' });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'p.json')));
    expect(error.message).toMatch(/line 2, column 3: expected a double-quoted field name/);
  });

  it('YAML syntax errors give line and column', async () => {
    const dir = tempDir({ 'p.yaml': 'name: P\ndate: 2024-05-14\nstops:\n  - name: [unclosed\n' });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'p.yaml')));
    expect(error.message).toMatch(/invalid YAML at line \d+, column \d+/);
    expect(error.code).toBe('invalid_yaml');
  });

  it('YAML duplicate keys are a syntax error naming the key', async () => {
    const dir = tempDir({ 'p.yaml': 'name: P\nname: Q\ndate: 2024-05-14\nstops:\n  - {name: A, name: B}\n' });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'p.yaml')));
    expect(error.message).toMatch(/invalid YAML at line 2, column 1: the key "name" is given twice in one mapping; keep only one/);
    expect(error.details.map((d) => d.path.replace(/^.*p\.yaml/, ''))).toEqual([':2:1', ':5:15']);
  });

  it('an empty file says so', async () => {
    const dir = tempDir({ 'p.json': '', 'p.yaml': '  \n' });
    expect((await inputErrorAsync(() => loadProblemFile(join(dir, 'p.json')))).message).toMatch(/the file is empty/);
    expect((await inputErrorAsync(() => loadProblemFile(join(dir, 'p.yaml')))).message).toMatch(/the file is empty/);
  });

  it('validation errors are prefixed with the file name', async () => {
    const dir = tempDir({ 'p.json': JSON.stringify(project({ date: 'tomorrow' })) });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'p.json')));
    expect(error.message).toMatch(/p\.json: invalid project: date: "tomorrow" is not allowed/);
  });

  // test/cli/flag-terms.test.ts: the command line shows these setting errors as its flags.
  it('an unknown extension is sniffed from the text, or an error asks for the input format', async () => {
    const dir = tempDir({ 'p.txt': JSON.stringify(oneoff()), 'q.dat': '\u0000\u0001' });
    expect((await loadProblemFile(join(dir, 'p.txt'))).kind).toBe('oneoff');
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'q.dat')));
    expect(error.message).toMatch(/or give the input format \(json, yaml or csv; solomon or vrplib for a benchmark instance\)$/);
  });

  it('an explicit format wins over the extension', async () => {
    const dir = tempDir({ 'p.data': 'name: P\ndate: 2024-05-14\n' });
    expect((await loadProblemFile(join(dir, 'p.data'), { format: 'yaml' })).kind).toBe('project');
  });

  it('stdin (-) without a format: JSON and YAML are told apart by their content; CSV needs the format', async () => {
    vi.spyOn(process, 'stdin', 'get').mockReturnValueOnce(Readable.from([JSON.stringify(oneoff())]) as unknown as typeof process.stdin);
    expect((await loadProblemFile('-')).kind).toBe('oneoff');
    vi.spyOn(process, 'stdin', 'get').mockReturnValueOnce(
      Readable.from(['# a project\nname: P\ndate: 2024-05-14\n']) as unknown as typeof process.stdin,
    );
    expect((await loadProblemFile('-')).kind).toBe('project');
    vi.spyOn(process, 'stdin', 'get').mockReturnValueOnce(Readable.from(['name,lat,lng\nA,1,2\n']) as unknown as typeof process.stdin);
    const error = await inputErrorAsync(() => loadProblemFile('-'));
    expect(error.message).toMatch(/^Cannot tell the format of standard input \(neither JSON nor YAML\): .*give the input format/);
  });

  it('stdin (-) is read with the given format', async () => {
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(Readable.from([JSON.stringify(oneoff())]) as unknown as typeof process.stdin);
    const loaded = await loadProblemFile('-', { format: 'json' });
    expect(loaded.kind).toBe('oneoff');
  });

  it('solomon and vrplib files are delegated to the benchmark reader', async () => {
    const solomon = [
      'C0',
      '',
      'VEHICLE',
      'NUMBER     CAPACITY',
      '  2         200',
      '',
      'CUSTOMER',
      'CUST NO.  XCOORD.   YCOORD.    DEMAND   READY TIME  DUE DATE   SERVICE   TIME',
      '',
      '    0      40         50          0          0       1236          0',
      '    1      45         68         10        912        967         90',
      '',
    ].join('\n');
    const dir = tempDir({ 'C0.txt': solomon });
    const loaded = await loadProblemFile(join(dir, 'C0.txt'));
    expect(loaded.kind).toBe('benchmark');
    expect(loaded.problem.surface).toBe('benchmark');
    expect(loaded.problem.name).toBe('C0');
    expect(loaded.problem.stops).toHaveLength(1);
  });
});

describe('CSV tables', () => {
  it('a lone .csv is a stops table: error explaining that drivers are needed (the YAML form)', async () => {
    const dir = tempDir({ 'stops.csv': 'name,lat,lng\nA,45.7,4.8\n' });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'stops.csv')));
    expect(error.message).toMatch(/also needs drivers/);
    expect(error.message).toMatch(/stops: stops\.csv/);
    expect(error.message).toMatch(/drivers: drivers\.csv/);
  });

  it('a YAML project may name CSV tables for its stops and drivers, relative to the YAML file', async () => {
    const dir = tempDir({
      'project.yaml': PROJECT_YAML,
      'drivers.csv': DRIVERS_CSV,
      'stops.csv': 'name,lat,lng,start,end,duration,load,types,priority\nA,45.775,4.83,08:00,10:00,6,5,van;bike,high\n',
    });
    const loaded = await loadProblemFile(join(dir, 'project.yaml'));
    const { problem } = loaded;
    expect(problem.vehicles[0]).toMatchObject({ name: 'Nadia', earliestStart: 7.5 * 3600, shiftEnd: 15.5 * 3600, labels: ['van', 'cold'] });
    expect(problem.stops[0]).toMatchObject({ name: 'A', duration: 360, priority: 10, labels: ['van', 'bike'] });
    expect(problem.stops[0]!.windows).toEqual([{ start: 8 * 3600, end: 10 * 3600 }]);
    expect(Array.from(problem.stops[0]!.load)).toEqual([5]);
    // the returned document has the tables inlined, ready to submit
    expect((loaded.document as { stops: unknown[] }).stops).toHaveLength(1);
  });

  it('CSV column names: latitude/longitude, tags for types, phone for phone_number; case and spaces do not matter', async () => {
    const dir = tempDir({
      'project.yaml': PROJECT_YAML,
      'drivers.csv': DRIVERS_CSV,
      'stops.csv': 'Name,Latitude,Longitude,Tags,Phone Number,Time Windows\nA,45.775,4.83,cold,+33 4 78 00 00 00,08:00-10:00;13:00-15:00\n',
    });
    const { problem } = await loadProblemFile(join(dir, 'project.yaml'));
    expect(problem.stops[0]).toMatchObject({ labels: ['cold'], passthrough: { phone_number: '+33 4 78 00 00 00' } });
    expect(problem.stops[0]!.windows).toEqual([
      { start: 8 * 3600, end: 10 * 3600 },
      { start: 13 * 3600, end: 15 * 3600 },
    ]);
  });

  it('CSV load_<name> and capacity_<name> columns give named dimensions', async () => {
    const dir = tempDir({
      'project.yaml': PROJECT_YAML,
      'drivers.csv': 'name,start_lat,start_lng,capacity_weight,capacity_volume\nNadia,45.77,4.83,500,2\n',
      'stops.csv': 'name,lat,lng,load_weight,load_volume\nA,45.775,4.83,12,0.4\n',
    });
    const { problem } = await loadProblemFile(join(dir, 'project.yaml'));
    expect(problem.dimensions).toEqual(['weight', 'volume']);
    expect(Array.from(problem.stops[0]!.load)).toEqual([12, 0.4]);
  });

  it('CSV custom_notes.<key> columns fill custom_notes, carried through unchanged', async () => {
    const dir = tempDir({
      'project.yaml': PROJECT_YAML,
      'drivers.csv': DRIVERS_CSV,
      'stops.csv': 'name,lat,lng,custom_notes.order_id,custom_notes_price\nA,45.775,4.83,BG-1,18.20\n',
    });
    const { problem, warnings } = await loadProblemFile(join(dir, 'project.yaml'));
    expect(problem.stops[0]!.passthrough).toEqual({ custom_notes: { order_id: 'BG-1', price: '18.20' } });
    expect(warnings).toEqual([]);
  });

  it('CSV drivers: end location, speed, break', async () => {
    const dir = tempDir({
      'project.yaml': PROJECT_YAML,
      'drivers.csv':
        'name,start_lat,start_lng,end_lat,end_lng,speed,break_start,break_end\nNadia,45.77,4.83,45.78,4.84,bike,12:00,12:30\nJulien,45.77,4.83,,,1.25,,\n',
      'stops.csv': 'name,lat,lng\nA,45.775,4.83\n',
    });
    const { problem } = await loadProblemFile(join(dir, 'project.yaml'));
    expect(problem.vehicles[0]).toMatchObject({ speed: 0.4, breaks: [{ start: 12 * 3600, end: 12.5 * 3600 }] });
    expect(problem.locations[problem.vehicles[0]!.endLocation]).toEqual({ lat: 45.78, lng: 4.84 });
    expect(problem.vehicles[1]).toMatchObject({ speed: 1.25, endLocation: -1, breaks: [] });
  });

  it('CSV errors name the file, row and column', async () => {
    const dir = tempDir({
      'project.yaml': PROJECT_YAML,
      'drivers.csv': DRIVERS_CSV,
      'stops.csv': 'name,lat,lng,priority\nA,45.7,4.8,high\nB,45.7,4.8,low\nC,45.7,4.8,urgent\nD,45.7,north,5\n',
    });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'project.yaml')));
    expect(detailAt(error, 'stops.csv row 4, column priority').message).toBe(
      '"urgent" is not allowed; use low, regular, high or an integer 1–10000',
    );
    expect(detailAt(error, 'stops.csv row 5, column lng').message).toMatch(/"north" is not allowed; use a longitude/);
  });

  it('a CSV row with neither coordinates nor address names the row', async () => {
    const dir = tempDir({ 'project.yaml': PROJECT_YAML, 'drivers.csv': DRIVERS_CSV, 'stops.csv': 'name,lat,lng,address\nA,,,\n' });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'project.yaml')));
    expect(detailAt(error, 'stops.csv row 2').message).toMatch(/missing/);
  });

  it('a CSV address without coordinates names the row and the address column', async () => {
    const dir = tempDir({
      'project.yaml': PROJECT_YAML,
      'drivers.csv': DRIVERS_CSV,
      'stops.csv': 'name,lat,lng,address\nA,,,"3 rue Saint-Jean, Lyon"\n',
    });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'project.yaml')));
    expect(detailAt(error, 'stops.csv row 2, column address').message).toContain('"3 rue Saint-Jean, Lyon"');
  });

  it('unknown CSV columns are one warning per column', async () => {
    const dir = tempDir({
      'project.yaml': PROJECT_YAML,
      'drivers.csv': DRIVERS_CSV,
      'stops.csv': 'name,lat,lng,colour\nA,45.7,4.8,red\nB,45.7,4.9,blue\n',
    });
    const { warnings } = await loadProblemFile(join(dir, 'project.yaml'));
    expect(warnings).toEqual([{ path: 'stops.csv column colour', message: 'unknown field "colour" is ignored' }]);
  });

  it('a missing CSV table is an error naming it and where it was looked for', async () => {
    const dir = tempDir({ 'project.yaml': PROJECT_YAML, 'drivers.csv': DRIVERS_CSV });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'project.yaml')));
    expect(detailAt(error, 'stops').message).toMatch(/"stops\.csv": no such file \(looked for .*stops\.csv\)/);
  });

  it('a one-off request may name CSV tables for ordersData and routesData', async () => {
    const dir = tempDir({
      'oneoff.yaml': 'routesData: routes.csv\nordersData: orders.csv\noptions: {defaultOrderDuration: 3}\n',
      'routes.csv': 'name,start_lat,start_lng,start_time,end_time,capacity,tags\nVan 1,45.729,4.827,07:00,15:00,60,cold;heavy\n',
      'orders.csv': 'name,lat,lng,time_windows,load,tags,displayOrderId\nMme Martin,45.75,4.84,08:00-10:00;13:00-15:00,4,cold,CMD-1\n',
    });
    const { problem, kind } = await loadProblemFile(join(dir, 'oneoff.yaml'));
    expect(kind).toBe('oneoff');
    expect(problem.vehicles[0]).toMatchObject({ name: 'Van 1', earliestStart: 7 * 3600, labels: ['cold', 'heavy'] });
    expect(problem.stops[0]).toMatchObject({ duration: 180, passthrough: { displayOrderId: 'CMD-1' } });
    expect(problem.stops[0]!.windows).toHaveLength(2);
  });

  it('in a document given directly (no file), a CSV reference is not allowed', () => {
    // the service's request bodies cannot point at files on the server
    const error = inputError(() => loadProblemDocument(project({ stops: 'stops.csv' })));
    expect(detailAt(error, 'stops').message).toBe('"stops.csv" is not allowed; use a list of stops');
  });

  it('all errors at once: an unreadable CSV table is reported together with the other errors of the document', async () => {
    const dir = tempDir({ 'p.json': '{"name":"a","date":"2024-02-30","drivers":5,"stops":"x"}' });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'p.json')));
    expect(error.details.map((d) => d.path)).toEqual(['date', 'drivers', 'stops']);
    expect(detailAt(error, 'drivers').message).toBe('5 is not allowed; use a list of drivers or the name of a CSV file (e.g. drivers.csv)');
    expect(detailAt(error, 'stops').message).toMatch(/^"x": no such file/);
    expect(error.message).toContain('3 errors');
  });

  it('all errors at once: a malformed CSV table and a directory given as a table are reported with the rest', async () => {
    const dir = tempDir({
      'oneoff.yaml': 'routesData: .\nordersData: orders.csv\noptions: {balanceType: ORDERS}\n',
      'orders.csv': 'name,lat,lng\n"A,45,4\n',
    });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'oneoff.yaml')));
    expect(error.details.map((d) => d.path)).toEqual(['routesData', 'orders.csv row 2', 'options.balanceType']);
    expect(detailAt(error, 'routesData').message).toMatch(/is a directory, not a CSV file/);
  });

  it('a non-list, non-file-name ordersData/routesData says a list or a CSV file name is wanted', async () => {
    const dir = tempDir({ 'o.yaml': 'routesData: {name: Van}\nordersData: 5\n' });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'o.yaml')));
    expect(error.details).toEqual([
      { path: 'routesData', message: 'an object is not allowed; use a list of routes or the name of a CSV file (e.g. routes.csv)' },
      { path: 'ordersData', message: '5 is not allowed; use a list of orders or the name of a CSV file (e.g. orders.csv)' },
    ]);
  });

  it('JSON duplicate keys are an error naming the field and both lines (as in YAML)', async () => {
    const dir = tempDir({ 'p.json': '{\n "name": "a",\n "stops": [{"name": "s", "name": "t"}],\n "name": "b"\n}' });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'p.json')));
    expect(error.details).toEqual([
      { path: 'stops[0].name', message: 'given twice (line 3, column 13 and line 3, column 26); keep only one' },
      { path: 'name', message: 'given twice (line 2, column 2 and line 4, column 2); keep only one' },
    ]);
  });

  it('CSV errors name the column of an empty cell that was needed', async () => {
    const dir = tempDir({
      'oneoff.yaml': 'routesData: routes.csv\nordersData: orders.csv\n',
      'routes.csv': 'name,start_lat,start_lng\nVan,45.7,\n',
      'orders.csv': 'name,lat,lng,time_windows,load_w\nA,45.7,4.8,12:00-11:00;-,x\n',
    });
    const error = await inputErrorAsync(() => loadProblemFile(join(dir, 'oneoff.yaml')));
    expect(error.details).toEqual([
      { path: 'routes.csv row 2, column start_lng', message: 'missing; give both latitude and longitude' },
      { path: 'orders.csv row 2, column load_w', message: '"x" is not allowed; use a number ≥ 0' },
      {
        path: 'orders.csv row 2, column time_windows',
        message: 'has neither startTime nor endTime; give at least one (HH:mm), or remove the window',
      },
    ]);
  });
});
