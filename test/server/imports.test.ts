/**
 * POST /v1.0/imports/{stops|drivers} (an uploaded spreadsheet → header, rows, guesses) and
 * …/items (mapped rows → stops or drivers with problems by row and column), against the real
 * service: CSV with each delimiter, XLSX, empty files, garbage bytes, the row and body limits,
 * a bad cell, and authentication (key, session cookie with its CSRF token).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import writeXlsxFile from 'write-excel-file/node';
import { servicesStoppedAfterEach } from './harness.js';
import { call, makeWebRoot, signIn } from './web-harness.js';

let webRoot: string;
beforeAll(async () => {
  webRoot = await makeWebRoot();
});
afterAll(async () => {
  await rm(webRoot, { recursive: true, force: true });
});

const service = servicesStoppedAfterEach(() => ({ webRoot }));

interface Upload {
  key?: string | null;
  headers?: Record<string, string>;
}

async function upload(base: string, path: string, body: Uint8Array | string, { key = 'key-alpha', headers = {} }: Upload = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
    body: typeof body === 'string' ? body : Buffer.from(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const STOPS = ['Customer,Street address,Lat,Lng,From,Until,Minutes,Qty,Ref', 'Boulangerie,1 rue X,45.76,4.83,08:00,10:00,5,3,A1'];

describe('POST /v1.0/imports/{stops|drivers}: the uploaded table', () => {
  it.each([
    [',', STOPS.join('\n')],
    [';', STOPS.join('\r\n').replace(/,/g, ';')],
    ['\t', STOPS.join('\n').replace(/,/g, '\t')],
  ])('CSV separated by %j: header, rows as text and a guess per column', async (delimiter, text) => {
    const svc = await service();
    const reply = await upload(svc.url, '/v1.0/imports/stops?file=stops.csv', text);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      format: 'csv',
      delimiter,
      header: ['Customer', 'Street address', 'Lat', 'Lng', 'From', 'Until', 'Minutes', 'Qty', 'Ref'],
      rows: [{ row: 2, cells: ['Boulangerie', '1 rue X', '45.76', '4.83', '08:00', '10:00', '5', '3', 'A1'] }],
      guesses: ['name', 'address', 'lat', 'lng', 'start', 'end', 'duration', 'load', null],
    });
    expect(reply.body.columns).toContainEqual({ column: 'duration', label: 'Service time (minutes)' });
  });

  it('XLSX: the first sheet', async () => {
    const svc = await service();
    const workbook = await writeXlsxFile([
      [{ value: 'Driver' }, { value: 'Depot' }, { value: 'From' }, { value: 'Capacity' }],
      [{ value: 'Camille' }, { value: '3 place Y' }, { value: '06:00' }, { value: 120 }],
    ]).toBuffer();
    const reply = await upload(svc.url, '/v1.0/imports/drivers?file=drivers.xlsx', workbook);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      format: 'xlsx',
      header: ['Driver', 'Depot', 'From', 'Capacity'],
      rows: [{ row: 2, cells: ['Camille', '3 place Y', '06:00', '120'] }],
      guesses: ['name', 'start_address', 'shift_start', 'capacity'],
    });
  });

  it('an empty file, garbage bytes and too many rows are 400 with a clear message; a body over the limit is 413', async () => {
    const svc = await service({ bodyLimitBytes: 64 * 1024 });
    const empty = await upload(svc.url, '/v1.0/imports/stops?file=empty.csv', '');
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: 'empty_file', details: [{ path: 'empty.csv' }] });
    const garbage = await upload(
      svc.url,
      '/v1.0/imports/stops?file=photo.jpg',
      Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]),
    );
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.code).toBe('not_a_spreadsheet');
    expect(garbage.body.error.message).toBe(
      'photo.jpg: this is not a spreadsheet: upload a CSV file (separated by commas, semicolons or tabs) or an XLSX workbook',
    );
    const tooMany = await upload(svc.url, '/v1.0/imports/drivers', `name\n${'D\n'.repeat(501)}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({
      code: 'too_many_rows',
      message: 'drivers spreadsheet has 501 entries; at most 500 vehicles are allowed',
    });
    const huge = await upload(svc.url, '/v1.0/imports/stops', `name\n${'x'.repeat(70 * 1024)}\n`);
    expect(huge.status).toBe(413);
  });

  it('needs a key or a session; with the session cookie a POST needs its CSRF token', async () => {
    const svc = await service();
    expect((await upload(svc.url, '/v1.0/imports/stops', STOPS.join('\n'), { key: null })).status).toBe(401);
    expect((await upload(svc.url, '/v1.0/imports/stops', STOPS.join('\n'), { key: 'wrong-key' })).status).toBe(401);
    const { cookie, csrf } = await signIn(svc.url, 'key-alpha');
    const withoutToken = await upload(svc.url, '/v1.0/imports/stops', STOPS.join('\n'), { key: null, headers: { cookie } });
    expect(withoutToken.status).toBe(403);
    const withToken = await upload(svc.url, '/v1.0/imports/stops', STOPS.join('\n'), {
      key: null,
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(withToken.status).toBe(200);
    const items = await call(svc.url, 'POST', '/v1.0/imports/stops/items', {
      cookie,
      json: { header: ['name'], columns: ['name'], rows: [] },
    });
    expect(items.status).toBe(403);
  });
});

describe('POST /v1.0/imports/{stops|drivers}/items: the mapped rows', () => {
  const header = ['Customer', 'Lat', 'Lng', 'From', 'Until', 'Qty', 'Ref'];
  const rows = [
    { row: 2, cells: ['Boulangerie', '45.76', '4.83', '08:00', '10:00', '3', 'A1'] },
    { row: 3, cells: ['Café', '45.77', '4.84', '8h', '11:00', 'lots', 'A2'] },
  ];

  it('answers each row’s item, and each bad cell by row and column with the CLI’s message', async () => {
    const svc = await service();
    const columns = ['name', 'lat', 'lng', 'start', 'end', 'load', null];
    const reply = await call(svc.url, 'POST', '/v1.0/imports/stops/items', {
      authorization: 'Bearer key-alpha',
      json: { file: 'stops.csv', header, columns, rows },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.items).toEqual([
      { row: 2, item: { name: 'Boulangerie', location: { coords: { lat: 45.76, lng: 4.83 } }, start: '08:00', end: '10:00', load: 3 } },
      { row: 3, item: { name: 'Café', location: { coords: { lat: 45.77, lng: 4.84 } }, start: '8h', end: '11:00', load: 'lots' } },
    ]);
    expect(reply.body.problems).toEqual([
      {
        row: 3,
        column: 'From',
        path: 'stops.csv row 3, column From',
        message: expect.stringContaining('"8h" is not allowed; use a clock time'),
      },
      { row: 3, column: 'Qty', path: 'stops.csv row 3, column Qty', message: expect.stringContaining('"lots" is not allowed') },
    ]);
  });

  it('a request that is not a mapping is 400 with the paths of what is wrong', async () => {
    const svc = await service();
    const reply = await call(svc.url, 'POST', '/v1.0/imports/drivers/items', {
      authorization: 'Bearer key-alpha',
      json: { header: ['a'], columns: ['load'], rows: [{ row: 0, cells: [] }] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.map((d: { path: string }) => d.path)).toEqual(['rows[0].row']);
    const unknown = await call(svc.url, 'POST', '/v1.0/imports/drivers/items', {
      authorization: 'Bearer key-alpha',
      json: { header: ['a'], columns: ['load'], rows: [] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([
      { path: 'columns[0]', message: expect.stringContaining('"load" is no column of drivers') },
    ]);
    expect((await call(svc.url, 'GET', '/v1.0/imports/stops', { authorization: 'Bearer key-alpha' })).status).toBe(405);
  });
});
