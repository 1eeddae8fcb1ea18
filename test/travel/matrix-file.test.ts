/** The user's matrix file (CSV or JSON) between named locations: read, checked, and mapped onto the problem's places. */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { travelTable, type TravelRequest } from '../../src/travel/index.js';
import { InputError } from '../../src/errors.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'routeplan-matrix-'));
  dirs.push(dir);
  await writeFile(join(dir, name), text);
  return join(dir, name);
}

/** A depot (Ana's start and end) and two stops. */
const REQUEST: TravelRequest = {
  locations: [
    { lat: 45.7, lng: 4.8, names: ['Ana/start', 'Ana/end'] },
    { lat: 45.71, lng: 4.81, names: ['Bakery'] },
    { lat: 45.72, lng: 4.82, names: ['Cafe'] },
  ],
  excludeTolls: false,
  excludeFerry: false,
};

const COMPLETE_CSV = [
  'from,to,duration_s,distance_m',
  'Ana/start,Bakery,300,2000',
  'Ana/start,Cafe,600,4000',
  'Bakery,Ana/end,310,2100',
  'Bakery,Cafe,200,1500',
  'Cafe,Ana/end,620,4100',
  'Cafe,Bakery,210,1550',
  'Elsewhere,Cafe,1,1',
].join('\n');

async function table(path: string): Promise<ReturnType<typeof travelTable>> {
  return travelTable(REQUEST, { source: 'matrix', matrixFile: path });
}

describe('a matrix file', () => {
  it('CSV: each pair of places takes the row of any of their names; rows for other places are ignored', async () => {
    const result = (await table(await file('m.csv', COMPLETE_CSV)))!;
    expect(Array.from(result.durations)).toEqual([0, 300, 600, 310, 0, 200, 620, 210, 0]);
    expect(Array.from(result.distances)).toEqual([0, 2000, 4000, 2100, 0, 1500, 4100, 1550, 0]);
    expect(Array.from(result.noRoad)).toEqual(new Array(9).fill(0));
  });

  it('JSON: locations with duration and distance rows; a null cell is a leg with no road', async () => {
    const json = {
      locations: ['Ana/start', 'Bakery', 'Cafe'],
      durations: [
        [0, 300, null],
        [310, 0, 200],
        [620, 210, 0],
      ],
      distances: [
        [0, 2000, null],
        [2100, 0, 1500],
        [4100, 1550, 0],
      ],
    };
    const result = (await table(await file('m.json', JSON.stringify(json))))!;
    expect(Array.from(result.noRoad)).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(result.durations[1]).toBe(300);
  });

  it('names every missing pair (the first 20 and how many), as an input error', async () => {
    const error = await table(await file('m.csv', COMPLETE_CSV.split('\n').slice(0, 3).join('\n'))).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(
      /lacks 4 of the problem's 6 legs: Bakery → Ana\/start; Bakery → Cafe; Cafe → Ana\/start; Cafe → Bakery$/,
    );
  });

  it('refuses negative or non-numeric values and conflicting duplicates, naming the row', async () => {
    const negative = await table(await file('m.csv', `${COMPLETE_CSV}\nBakery,Cafe,-5,1500`)).catch((caught: unknown) => caught);
    expect((negative as Error).message).toMatch(/row 9: duration_s must be a non-negative number, got "-5"/);
    const conflict = await table(await file('m.csv', `${COMPLETE_CSV}\nBakery,Cafe,201,1500`)).catch((caught: unknown) => caught);
    expect((conflict as Error).message).toMatch(/Bakery → Cafe is given twice with different values \(row 5 and row 9\)/);
    const same = await table(await file('m.csv', `${COMPLETE_CSV}\nBakery,Cafe,200,1500`));
    expect(same!.size).toBe(3);
    const header = await table(await file('m.csv', 'a,b,c\n1,2,3')).catch((caught: unknown) => caught);
    expect((header as Error).message).toMatch(/expected the header from,to,duration_s,distance_m/);
    const infinite = await table(await file('m.json', '{"locations":["Ana/start"],"durations":[[1e999]],"distances":[[0]]}')).catch(
      (caught: unknown) => caught,
    );
    expect((infinite as Error).message).toMatch(/durations\[0\]\[0\]: duration must be a non-negative number/);
  });

  it('needs --travel-matrix, and says when it cannot be read', async () => {
    // The travel layer names the setting; the command line shows it as --travel-matrix (cli/flag-terms.ts).
    expect(((await travelTable(REQUEST, { source: 'matrix' }).catch((caught: unknown) => caught)) as InputError).details[0]!.path).toBe(
      'travelMatrix',
    );
    const missing = await table('/nonexistent/m.csv').catch((caught: unknown) => caught);
    expect((missing as Error).message).toBe('cannot read the travel matrix /nonexistent/m.csv: ENOENT');
  });
});
