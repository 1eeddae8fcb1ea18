/**
 * Addresses through the BUILT binary: `routeplan geocode` writes a copy with coords (YAML keeps its
 * comments, JSON stays JSON, the input is never overwritten), reports what found nothing (exit 2
 * unless --allow-unresolved); `solve` and `validate` geocode in memory with --gazetteer, and without
 * a geocoder list every address-only place in one error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT, assertBuilt, runCli, startBuiltServer } from '../server/built.js';

let work: string;
let gazetteer: string;

const YAML = `# Tuesday's bakery round — written by hand
name: Addresses
date: 2026-11-24
drivers:
  - name: Ana # the morning driver
    start_location: { address: "Dépôt, 12 quai Rambaud, Lyon" }
    shift_start: "08:00"
    shift_end: "12:00"
stops:
  # the old town first
  - name: Saint-Jean
    location: { address: "3 rue Saint-Jean, Lyon" }
    duration: 5
  - name: Verdun
    location: { address: "30 cours de Verdun, Lyon" }
    duration: 5
`;

beforeAll(async () => {
  assertBuilt();
  work = await mkdtemp(join(tmpdir(), 'routeplan-geocode-cli-'));
  gazetteer = join(work, 'places.csv');
  await writeFile(
    gazetteer,
    [
      'address,lat,lng',
      '"Dépôt, 12 quai Rambaud, Lyon",45.742,4.818',
      '"3 rue Saint-Jean, Lyon",45.7622,4.8271',
      '"30 cours de Verdun, Lyon",45.7486,4.8262',
    ].join('\n'),
  );
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('routeplan geocode', () => {
  it('writes a YAML copy with coords filled in, keeping the comments, and leaves the input as it was', async () => {
    const input = join(work, 'round.yaml');
    const output = join(work, 'round.geocoded.yaml');
    await writeFile(input, YAML);
    const run = await runCli(['geocode', input, '-o', output, '--gazetteer', gazetteer]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('3 of 3 addresses placed.');
    expect(await readFile(input, 'utf8')).toBe(YAML);
    const written = await readFile(output, 'utf8');
    for (const comment of ["# Tuesday's bakery round — written by hand", '# the morning driver', '# the old town first'])
      expect(written).toContain(comment);
    const document = parse(written);
    expect(document.drivers[0].start_location).toEqual({ address: 'Dépôt, 12 quai Rambaud, Lyon', coords: { lat: 45.742, lng: 4.818 } });
    expect(document.stops[1].location.coords).toEqual({ lat: 45.7486, lng: 4.8262 });
    const solved = await runCli(['solve', output, '--json', '--quiet', '--max-iterations', '20']);
    expect(solved.code, solved.stderr).toBe(0);
    expect(JSON.parse(solved.stdout).summary.served).toBe(2);
  });

  it('fills a one-off JSON request’s latitude and longitude', async () => {
    const input = join(work, 'oneoff.json');
    await writeFile(
      input,
      JSON.stringify({
        routesData: [{ name: 'Van', constraints: { startLocations: [{ latitude: 45.76, longitude: 4.83 }] } }],
        ordersData: [{ name: 'Saint-Jean', locations: [{ address: '3 rue Saint-Jean, Lyon' }] }],
        options: {},
      }),
    );
    const run = await runCli(['geocode', input, '-o', join(work, 'oneoff.out.json'), '--gazetteer', gazetteer, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      {
        path: 'ordersData[0].locations[0]',
        address: '3 rue Saint-Jean, Lyon',
        lat: 45.7622,
        lng: 4.8271,
        label: '3 rue Saint-Jean, Lyon',
        status: 'found',
      },
    ]);
    const written = JSON.parse(await readFile(join(work, 'oneoff.out.json'), 'utf8'));
    expect(written.ordersData[0].locations[0]).toEqual({ address: '3 rue Saint-Jean, Lyon', latitude: 45.7622, longitude: 4.8271 });
  });

  it('exits 2 naming each address that found nothing, unless --allow-unresolved; never writes over its input', async () => {
    const input = join(work, 'unknown.yaml');
    await writeFile(input, YAML.replace('30 cours de Verdun, Lyon', '1 impasse Inconnue, Lyon'));
    const run = await runCli(['geocode', input, '-o', join(work, 'unknown.out.yaml'), '--gazetteer', gazetteer]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('1 of 3 addresses found nothing');
    expect(run.stderr).toContain('stops[1].location');
    expect(
      (await runCli(['geocode', input, '-o', join(work, 'unknown.out.yaml'), '--gazetteer', gazetteer, '--allow-unresolved'])).code,
    ).toBe(0);
    const same = await runCli(['geocode', input, '-o', input, '--gazetteer', gazetteer]);
    expect([same.code, same.stderr.trim()]).toEqual([2, 'routeplan: error: geocode never writes over its input: give another file']);
  });
});

describe('routeplan geocode on CSV tables', () => {
  it('writes filled copies of the tables beside the output, the problem copy names them, and the inputs stay as they were', async () => {
    const source = join(work, 'csv-in');
    const out = join(work, 'csv-out');
    await mkdir(source, { recursive: true });
    await mkdir(out, { recursive: true });
    await cp(join(ROOT, 'fixtures/csv/project.yaml'), join(source, 'project.yaml'));
    await cp(join(ROOT, 'fixtures/csv/drivers.csv'), join(source, 'drivers.csv'));
    // The café keeps its address and loses its coordinates.
    const stops = (await readFile(join(ROOT, 'fixtures/csv/stops.csv'), 'utf8')).replace(
      'Café de la Soierie,45.7731,4.8275,',
      'Café de la Soierie,,,',
    );
    await writeFile(join(source, 'stops.csv'), stops);
    const places = join(work, 'croix-rousse.csv');
    await writeFile(places, 'address,lat,lng\n"12 rue d\'Austerlitz, 69004 Lyon",45.7731,4.8275\n');
    const run = await runCli(['geocode', join(source, 'project.yaml'), '-o', join(out, 'project.yaml'), '--gazetteer', places]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('stops.csv row 3');
    expect(await readFile(join(source, 'stops.csv'), 'utf8')).toBe(stops);
    const copy = await readFile(join(out, 'project.yaml'), 'utf8');
    expect(copy).toContain('# A project kept as two spreadsheets');
    expect(parse(copy).stops).toBe('stops.geocoded.csv');
    expect(await readFile(join(out, 'stops.geocoded.csv'), 'utf8')).toContain('Café de la Soierie,45.7731,4.8275,');
    await cp(join(source, 'drivers.csv'), join(out, 'drivers.csv'));
    const solved = await runCli(['solve', join(out, 'project.yaml'), '--json', '--quiet', '--max-iterations', '20']);
    expect(solved.code, solved.stderr).toBe(0);
  });

  it('adds lat and lng columns to a table that had none', async () => {
    const dir = join(work, 'no-columns');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'stops.csv'), 'name,address,duration\nSaint-Jean,"3 rue Saint-Jean, Lyon",5\n');
    await writeFile(join(dir, 'round.yaml'), YAML.replace(/stops:[\s\S]*$/, 'stops: stops.csv\n'));
    const run = await runCli(['geocode', join(dir, 'round.yaml'), '-o', join(dir, 'round.out.yaml'), '--gazetteer', gazetteer]);
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(dir, 'stops.geocoded.csv'), 'utf8')).toBe(
      'name,address,duration,lat,lng\nSaint-Jean,"3 rue Saint-Jean, Lyon",5,45.7622,4.8271\n',
    );
  });

  it('finds the address and coordinate columns by the words dispatchers use (Street address, Latitude), as the table is read', async () => {
    const dir = join(work, 'dispatcher-words');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'stops.csv'),
      'Customer,Street address,Minutes,Latitude,Longitude\nSaint-Jean,"3 rue Saint-Jean, Lyon",5,,\n',
    );
    await writeFile(join(dir, 'round.yaml'), YAML.replace(/stops:[\s\S]*$/, 'stops: stops.csv\n'));
    const run = await runCli(['geocode', join(dir, 'round.yaml'), '-o', join(dir, 'round.out.yaml'), '--gazetteer', gazetteer]);
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(dir, 'stops.geocoded.csv'), 'utf8')).toBe(
      'Customer,Street address,Minutes,Latitude,Longitude\nSaint-Jean,"3 rue Saint-Jean, Lyon",5,45.7622,4.8271\n',
    );
  });

  it('a semicolon table with decimal commas is written back the same way, and a semicolon gazetteer is read', async () => {
    const dir = join(work, 'semicolons');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'stops.csv'), 'name;address;duration;lat;lng\nSaint-Jean;3 rue Saint-Jean, Lyon;2,5;;\n');
    await writeFile(join(dir, 'places.csv'), 'address;lat;lng\n3 rue Saint-Jean, Lyon;45,7622;4,8271\n');
    await writeFile(join(dir, 'round.yaml'), YAML.replace(/stops:[\s\S]*$/, 'stops: stops.csv\n'));
    const places = ['--gazetteer', join(dir, 'places.csv')];
    const run = await runCli(['geocode', join(dir, 'round.yaml'), '-o', join(dir, 'round.out.yaml'), ...places, '--allow-unresolved']);
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(dir, 'stops.geocoded.csv'), 'utf8')).toBe(
      'name;address;duration;lat;lng\nSaint-Jean;3 rue Saint-Jean, Lyon;2,5;45,7622;4,8271\n',
    );
  });
});

describe('submit with addresses', () => {
  it('geocodes in memory with a geocoder here; without one leaves it to the service, which refuses when it has none', async () => {
    const input = join(work, 'submit.yaml');
    await writeFile(input, YAML);
    const geocoding = await startBuiltServer(['--gazetteer', gazetteer, '--data-dir', join(work, 'data-geo')], {
      ROUTEPLAN_SERVER_KEYS: 'k',
    });
    try {
      const created = await runCli(['submit', input, '--remote', geocoding.url, '--api-key', 'k']);
      expect(created.code, created.stderr).toBe(0);
      const id = created.stdout.trim().split(' ')[0]!;
      let project: any;
      for (let i = 0; i < 100; i++) {
        project = await (await fetch(`${geocoding.url}/v1.0/project/${id}`, { headers: { authorization: 'Bearer k' } })).json();
        if (project.geocoding_status === 'done') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect([project.geocoding_status, project.geocoding]).toEqual(['done', []]);
    } finally {
      await geocoding.stop();
    }
    const plain = await startBuiltServer(['--data-dir', join(work, 'data-plain')], { ROUTEPLAN_SERVER_KEYS: 'k' });
    try {
      const refused = await runCli(['submit', input, '--remote', plain.url, '--api-key', 'k']);
      expect(refused.code).toBe(2);
      for (const path of ['drivers[0].start_location', 'stops[0].location', 'stops[1].location']) expect(refused.stderr).toContain(path);
      // With a geocoder here, submit geocodes in memory and the service gets coordinates.
      const sent = await runCli(['submit', input, '--remote', plain.url, '--api-key', 'k', '--gazetteer', gazetteer, '--json']);
      expect(sent.code, sent.stderr).toBe(0);
      const project = JSON.parse(sent.stdout);
      expect(project.stops[0].location).toEqual({ address: '3 rue Saint-Jean, Lyon', coords: { lat: 45.7622, lng: 4.8271 } });
      expect(project.drivers[0].start_location.coords).toEqual({ lat: 45.742, lng: 4.818 });
    } finally {
      await plain.stop();
    }
  }, 40_000);
});

describe('solve and validate with addresses', () => {
  it('geocode in memory with --gazetteer, and list every address-only place without a geocoder', async () => {
    const input = join(work, 'in-memory.yaml');
    await writeFile(input, YAML);
    const solved = await runCli(['solve', input, '--gazetteer', gazetteer, '--json', '--quiet', '--max-iterations', '20']);
    expect(solved.code, solved.stderr).toBe(0);
    expect(JSON.parse(solved.stdout).routes[0].visits.find((visit: any) => visit.stop === 'Saint-Jean').location).toEqual({
      lat: 45.7622,
      lng: 4.8271,
    });
    const refused = await runCli(['validate', input]);
    expect(refused.code).toBe(2);
    for (const path of ['drivers[0].start_location', 'stops[0].location', 'stops[1].location']) expect(refused.stderr).toContain(path);
  });
});
