import { describe, expect, it } from 'vitest';
import { detailAt, driver, inputError, load, oneoff, order, project, route, stop } from './helpers.js';

const withStop = (extra: Record<string, unknown>) => project({ stops: [stop('A', extra)] });
const withDriver = (extra: Record<string, unknown>) => project({ drivers: [driver('D', extra)] });

describe("validation: every error at once, in the user's terms", () => {
  it('all errors reported at once with their paths', () => {
    const error = inputError(() =>
      load(
        project({
          date: '14/05/2024',
          drivers: [driver('D', { speed: 'turbo' })],
          stops: [stop('A'), stop('B', { priority: 'urgent' }), stop('C', { start: '8h' })],
        }),
      ),
    );
    expect(error.details.map((d) => d.path)).toEqual(['date', 'drivers[0].speed', 'stops[1].priority', 'stops[2].start']);
    expect(error.message).toContain('4 errors');
  });

  it('an error message quotes the value given and says what is allowed', () => {
    const error = inputError(() => load(project({ stops: [stop('A'), stop('B'), stop('C'), stop('D', { priority: 'urgent' })] })));
    expect(detailAt(error, 'stops[3].priority').message).toBe('"urgent" is not allowed; use low, regular, high or an integer 1–10000');
  });

  it('address, window-form and field errors of one stop are all reported in one pass', () => {
    const error = inputError(() =>
      load(
        project({
          stops: [
            {
              name: 'A',
              location: { address: '3 rue Saint-Jean' },
              priority: 'urgent',
              start: '08:00',
              time_windows: [{ start: '09:00' }],
            },
          ],
        }),
      ),
    );
    expect(error.details.map((d) => d.path).sort()).toEqual(['stops[0].location', 'stops[0].priority', 'stops[0].time_windows']);
  });

  it('a one-off route without start location is reported together with other errors', () => {
    const error = inputError(() => load(oneoff({ routesData: [{ name: 'Van', constraints: { capacity: -1 } }] })));
    expect(error.details.map((d) => d.path)).toEqual(['routesData[0].constraints.capacity', 'routesData[0].constraints.startLocations']);
  });

  it('only the first of several one-off locations needs coordinates (the others are not used)', () => {
    const loaded = load(
      oneoff({ ordersData: [order('A', { locations: [{ latitude: 45.75, longitude: 4.84 }, { address: 'elsewhere' }] })] }),
    );
    expect(loaded.problem.stops[0]!.location).toBeGreaterThanOrEqual(0);
  });

  it('a missing required field is named as missing', () => {
    const error = inputError(() => load(project({ stops: [{ location: { coords: { lat: 45, lng: 4 } } }] })));
    expect(detailAt(error, 'stops[0].name').message).toMatch(/^missing; give a non-empty name/);
  });
});

describe('field rules', () => {
  it('project requires name and date', () => {
    const error = inputError(() => load({ drivers: [], stops: [] }));
    expect(detailAt(error, 'name').message).toMatch(/missing/);
    expect(detailAt(error, 'date').message).toMatch(/missing/);
  });

  it('date must be a real date YYYY-MM-DD', () => {
    expect(
      detailAt(
        inputError(() => load(project({ date: '2024-02-30' }))),
        'date',
      ).message,
    ).toMatch(/"2024-02-30" is not allowed/);
    expect(
      detailAt(
        inputError(() => load(project({ date: '2024-5-14' }))),
        'date',
      ).message,
    ).toMatch(/YYYY-MM-DD/);
    expect(load(project({ date: '2024-02-29' })).problem.date).toBe('2024-02-29');
  });

  it('clock formats: HH:mm, H:mm and HH:mm:ss are accepted', () => {
    const loaded = load(withStop({ start: '8:05', end: '10:30:15' }));
    expect(loaded.problem.stops[0]!.windows).toEqual([{ start: 8 * 3600 + 300, end: 10 * 3600 + 1800 + 15 }]);
  });

  it('clock formats: anything else is an error (48:00, 8h, 08:60, a number)', () => {
    for (const bad of ['48:00', '8h', '08:60', 800]) {
      const error = inputError(() => load(withStop({ start: bad })));
      expect(detailAt(error, 'stops[0].start').message).toMatch(/is not allowed; use a clock time HH:mm/);
    }
  });

  it('latitude must be within -90..90 and longitude within -180..180', () => {
    const error = inputError(() => load(project({ stops: [stop('A', {}, { lat: 91, lng: 4 }), stop('B', {}, { lat: 45, lng: -181 })] })));
    expect(detailAt(error, 'stops[0].location.coords.lat').message).toMatch(/91 is not allowed; use a latitude from -90 to 90/);
    expect(detailAt(error, 'stops[1].location.coords.lng').message).toMatch(/-181 is not allowed; use a longitude from -180 to 180/);
  });

  it('speed: the six names or a number 0.1–2; anything else is an input error', () => {
    for (const ok of ['faster', 'fast', 'normal', 'slow', 'very slow', 'bike', 0.1, 2, 1.3]) {
      expect(() => load(withDriver({ speed: ok }))).not.toThrow();
    }
    for (const bad of ['turbo', 0.05, 2.5, 0, 'Fast']) {
      const error = inputError(() => load(withDriver({ speed: bad })));
      expect(detailAt(error, 'drivers[0].speed').message).toMatch(
        /use faster, fast, normal, slow, very slow, bike or a number from 0\.1 to 2/,
      );
    }
  });

  it('priority: low, regular, high or an integer 1–10000', () => {
    for (const ok of ['low', 'regular', 'high', 1, 10000]) expect(() => load(withStop({ priority: ok }))).not.toThrow();
    for (const bad of ['urgent', 0, 10001, 2.5, true]) {
      const error = inputError(() => load(withStop({ priority: bad })));
      expect(detailAt(error, 'stops[0].priority').message).toMatch(/low, regular, high or an integer 1–10000/);
    }
  });

  it('traffic is a multiplier from 1 to 2', () => {
    expect(() => load(project({ settings: { traffic: 1.5 } }))).not.toThrow();
    for (const bad of [0.9, 2.1, 'heavy']) {
      const error = inputError(() => load(project({ settings: { traffic: bad } })));
      expect(detailAt(error, 'settings.traffic').message).toMatch(/from 1 to 2/);
    }
  });

  it('durations, loads and capacities cannot be negative', () => {
    const error = inputError(() =>
      load(
        project({
          drivers: [driver('D', { capacity: -1 })],
          stops: [stop('A', { duration: -5, load: { weight: -2 } })],
          settings: { default_duration: -1, max_stop_lateness: -1, max_driver_overtime: -1, default_load: -1 },
        }),
      ),
    );
    expect(error.details.map((d) => d.path).sort()).toEqual(
      [
        'drivers[0].capacity',
        'stops[0].duration',
        'stops[0].load.weight',
        'settings.default_duration',
        'settings.max_stop_lateness',
        'settings.max_driver_overtime',
        'settings.default_load',
      ].sort(),
    );
  });

  it('one-off durations and options minutes cannot be negative', () => {
    const error = inputError(() =>
      load(oneoff({ ordersData: [order('A', { duration: -1 })], options: { squashDuration: -1, defaultOrderDuration: -2 } })),
    );
    expect(error.details.map((d) => d.path)).toEqual(['ordersData[0].duration', 'options.squashDuration', 'options.defaultOrderDuration']);
  });

  it('phone numbers must be in international format (+ and digits)', () => {
    expect(() => load(withStop({ phone_number: '+33 4 72 11 73 11' }))).not.toThrow();
    expect(() => load(withDriver({ phone_number: '+33-6-12-34-56-78' }))).not.toThrow();
    for (const bad of ['04 72 11 73 11', '+33 abc', '+0 123']) {
      const error = inputError(() => load(withStop({ phone_number: bad })));
      expect(detailAt(error, 'stops[0].phone_number').message).toMatch(/international number with a leading \+/);
    }
  });

  it('email must be an e-mail address', () => {
    expect(() => load(withStop({ email: 'cafe@soleil.example' }))).not.toThrow();
    const error = inputError(() => load(withStop({ email: 'cafe.soleil' })));
    expect(detailAt(error, 'stops[0].email').message).toMatch(/"cafe.soleil" is not allowed; use an e-mail address/);
  });

  it('balanceType is none or orders', () => {
    expect(() => load(oneoff({ options: { balanceType: 'none' } }))).not.toThrow();
    const error = inputError(() => load(oneoff({ options: { balanceType: 'time' } })));
    expect(detailAt(error, 'options.balanceType').message).toBe('"time" is not allowed; use none or orders');
  });

  it('load and capacity: a number or an object of named numbers', () => {
    expect(() =>
      load(project({ drivers: [driver('D', { capacity: { weight: 100, volume: 2 } })], stops: [stop('A', { load: { weight: 3 } })] })),
    ).not.toThrow();
    const error = inputError(() => load(withStop({ load: 'heavy' })));
    expect(detailAt(error, 'stops[0].load').message).toMatch(/"heavy" is not allowed; use a number ≥ 0 or an object of named numbers/);
  });

  it('types and tags: a string or a list of strings', () => {
    expect(load(withStop({ types: 'van' })).problem.stops[0]!.labels).toEqual(['van']);
    expect(load(withStop({ types: ['van', 'bike'] })).problem.stops[0]!.labels).toEqual(['van', 'bike']);
    const error = inputError(() => load(withStop({ types: 3 })));
    expect(detailAt(error, 'stops[0].types').message).toMatch(/a name or a list of names/);
    const tagError = inputError(() => load(oneoff({ ordersData: [order('A', { tags: [1] })] })));
    expect(detailAt(tagError, 'ordersData[0].tags[0]').message).toBe('1 is not allowed; use a name');
  });

  it('break: an object {start, end}; breaks: a list of them; both spellings accepted', () => {
    expect(() => load(withDriver({ break: { start: '10:00', end: '10:15' } }))).not.toThrow();
    expect(() => load(withDriver({ breaks: [{ start: '10:00', end: '10:15' }] }))).not.toThrow();
    const error = inputError(() => load(withDriver({ break: { start: '10:00' }, breaks: 'noon' })));
    expect(detailAt(error, 'drivers[0].break.end').message).toMatch(/missing/);
    expect(detailAt(error, 'drivers[0].breaks').message).toMatch(/a list of \{start, end\}/);
  });

  it('booleans must be true or false', () => {
    const error = inputError(() => load(oneoff({ options: { minimizeRoutes: 'yes' } })));
    expect(detailAt(error, 'options.minimizeRoutes').message).toBe('"yes" is not allowed; use true or false');
  });

  it('a stop location needs coords or an address', () => {
    const error = inputError(() => load(project({ stops: [{ name: 'A', location: {} }] })));
    expect(detailAt(error, 'stops[0].location').message).toMatch(/neither coords nor an address/);
    const missing = inputError(() => load(project({ stops: [{ name: 'A' }] })));
    expect(detailAt(missing, 'stops[0].location').message).toMatch(/missing/);
  });

  it('a one-off location entry needs both latitude and longitude', () => {
    const error = inputError(() => load(oneoff({ ordersData: [order('A', {}, { latitude: 45 } as never)] })));
    expect(detailAt(error, 'ordersData[0].locations[0].longitude').message).toMatch(/both latitude and longitude/);
  });

  it('a one-off route needs a start location', () => {
    const error = inputError(() => load(oneoff({ routesData: [{ name: 'Van', constraints: {} }] })));
    expect(detailAt(error, 'routesData[0].constraints.startLocations').message).toMatch(/needs a start location/);
  });

  it('start/end and time_windows on one stop are not both allowed', () => {
    const error = inputError(() => load(withStop({ start: '08:00', time_windows: [{ start: '09:00', end: '10:00' }] })));
    expect(detailAt(error, 'stops[0].time_windows').message).toMatch(/either start\/end or time_windows/);
  });

  it('JSON null counts as "not given" for optional fields', () => {
    const loaded = load(withStop({ start: null, end: null, priority: null, duration: null }));
    expect(loaded.problem.stops[0]!.windows).toEqual([{ start: 0, end: Infinity }]);
    expect(loaded.problem.stops[0]!.priority).toBe(5);
  });
});

describe('addresses without coordinates and no geocoder configured', () => {
  it('an address without coords is an error listing every such stop with its address', () => {
    const error = inputError(() =>
      load(
        project({
          drivers: [driver('D', { end_location: { address: 'Dépôt, 69007 Lyon' } })],
          stops: [
            { name: 'A', location: { address: '3 rue Saint-Jean, 69005 Lyon' } },
            stop('B'),
            { name: 'C', location: { address: '30 cours de Verdun, 69002 Lyon' } },
          ],
        }),
      ),
    );
    expect(error.details.map((d) => d.path)).toEqual(['drivers[0].end_location', 'stops[0].location', 'stops[2].location']);
    expect(detailAt(error, 'stops[0].location').message).toContain('"3 rue Saint-Jean, 69005 Lyon"');
    expect(detailAt(error, 'stops[2].location').message).toMatch(
      /add coords, or have it geocoded: --gazetteer <file\.csv>, or --geocoder nominatim/,
    );
  });

  it('one-off locations with an address only are errors too', () => {
    const error = inputError(() => load(oneoff({ ordersData: [order('A', {}, { address: '1 place Bellecour' } as never)] })));
    expect(detailAt(error, 'ordersData[0].locations[0]').message).toContain('"1 place Bellecour"');
  });
});

describe('limits: 500 vehicles and 5,000 stops, both surfaces', () => {
  const many = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));

  it('a one-off with more than 5,000 orders is rejected with the count', () => {
    const error = inputError(() => load(oneoff({ ordersData: many(5001, (i) => order(`O${i}`)) })));
    expect(detailAt(error, 'ordersData').message).toBe('has 5,001 entries; at most 5,000 stops are allowed');
  });

  it('a one-off with more than 500 routes is rejected with the count', () => {
    const error = inputError(() => load(oneoff({ routesData: many(501, (i) => route(`R${i}`)) })));
    expect(detailAt(error, 'routesData').message).toBe('has 501 entries; at most 500 vehicles are allowed');
  });

  it('a project with more than 500 drivers or 5,000 stops is rejected with the counts', () => {
    const error = inputError(() => load(project({ drivers: many(501, (i) => driver(`D${i}`)), stops: many(5001, (i) => stop(`S${i}`)) })));
    expect(error.details.map((d) => d.path)).toEqual(['drivers', 'stops']);
  });

  it('exactly 500 vehicles and 5,000 stops are accepted', () => {
    const loaded = load(oneoff({ routesData: many(500, (i) => route(`R${i}`)), ordersData: many(5000, (i) => order(`O${i}`)) }));
    expect(loaded.problem.vehicles).toHaveLength(500);
    expect(loaded.problem.stops).toHaveLength(5000);
  });
});

describe('warnings', () => {
  it('unknown fields are warnings, with their path, not errors', () => {
    const loaded = load(project({ stops: [stop('A', { prority: 'high', colour: 'red' })], extra: 1 }));
    expect(loaded.warnings).toEqual(
      expect.arrayContaining([
        { path: 'stops[0].prority', message: 'unknown field "prority" is ignored (did you mean "priority"?)' },
        { path: 'stops[0].colour', message: 'unknown field "colour" is ignored' },
        { path: 'extra', message: 'unknown field "extra" is ignored' },
      ]),
    );
    expect(loaded.problem.stops[0]!.priority).toBe(5);
  });

  it('unknown fields in a one-off request are warnings too', () => {
    const loaded = load(oneoff({ ordersData: [order('A', { priority: 'high' })], options: { fastest: true } }));
    expect(loaded.warnings.map((w) => w.path)).toEqual(['ordersData[0].priority', 'options.fastest']);
  });

  it('several startLocations, endLocations or locations: the first is used, with a warning', () => {
    const second = { latitude: 45.8, longitude: 4.9 };
    const loaded = load(
      oneoff({
        routesData: [route('Van', { startLocations: [{ latitude: 45.729, longitude: 4.827 }, second], endLocations: [second, second] })],
        ordersData: [order('A', { locations: [{ latitude: 45.75, longitude: 4.84 }, second] })],
      }),
    );
    const paths = loaded.warnings.map((w) => w.path);
    expect(paths).toEqual([
      'routesData[0].constraints.startLocations',
      'routesData[0].constraints.endLocations',
      'ordersData[0].locations',
    ]);
    expect(loaded.warnings[0]!.message).toBe('2 locations given; the first is used');
    const { problem } = loaded;
    expect(problem.locations[problem.vehicles[0]!.startLocation]).toEqual({ lat: 45.729, lng: 4.827 });
    expect(problem.locations[problem.stops[0]!.location]).toEqual({ lat: 45.75, lng: 4.84 });
  });

  it('duration minutes that are not whole seconds are rounded, with a warning', () => {
    const loaded = load(withStop({ duration: 2.0125 }));
    expect(loaded.problem.stops[0]!.duration).toBe(121);
    expect(loaded.warnings).toEqual([
      { path: 'stops[0].duration', message: '2.0125 minutes is not a whole number of seconds; rounded to 121 s' },
    ]);
  });

  it('fractional minutes that are whole seconds give no warning', () => {
    const loaded = load(withStop({ duration: 2.5 }));
    expect(loaded.problem.stops[0]!.duration).toBe(150);
    expect(loaded.warnings).toEqual([]);
  });

  it('a one-off order without any location is left unserved (location -1) with a warning', () => {
    const loaded = load(oneoff({ ordersData: [{ name: 'Nowhere' }] }));
    expect(loaded.problem.stops[0]!.location).toBe(-1);
    expect(loaded.warnings[0]!.path).toBe('ordersData[0].locations');
  });

  it('excludeTolls and excludeFerry are accepted but warned about with the offline model', () => {
    const loaded = load(oneoff({ options: { excludeTolls: true, excludeFerry: false } }));
    expect(loaded.warnings.map((w) => w.path)).toEqual(['options.excludeTolls']);
  });

  it('coordinates far from all the others are a warning that names the stop, before any solving', () => {
    const lyon = (dlat: number) => ({ lat: 45.75 + dlat, lng: 4.83 });
    const loaded = load(
      project({
        stops: [
          stop('A', {}, lyon(0)),
          stop('B', {}, lyon(0.01)),
          stop('Swapped', {}, { lat: 4.83, lng: 45.75 }),
          stop('C', {}, lyon(0.02)),
        ],
      }),
    );
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]!.path).toBe('stops[2]');
    expect(loaded.warnings[0]!.message).toMatch(/^"Swapped" is \d+ km from the other places; its latitude and longitude look swapped$/);
  });

  it('a stop in another town far from the rest is named, without a swap hint', () => {
    const loaded = load(project({ stops: [stop('A'), stop('B'), stop('C'), stop('Paris', {}, { lat: 48.8566, lng: 2.3522 })] }));
    expect(loaded.warnings.map((w) => [w.path, w.message])).toEqual([
      ['stops[3]', expect.stringMatching(/^"Paris" is \d+ km from the other places; check its coordinates$/)],
    ]);
  });

  it('places spread over a region are not called far: the limit grows with their typical distance', () => {
    const spread = [0, 0.5, 1, 1.5].map((d, i) => stop(`S${i}`, {}, { lat: 45 + d, lng: 4 + d }));
    expect(load(project({ stops: spread })).warnings).toEqual([]);
  });

  it('no drivers: a warning that every stop will be unserved', () => {
    const loaded = load(project({ drivers: [] }));
    expect(loaded.warnings).toEqual([{ path: 'drivers', message: 'no drivers: every stop will be left unserved' }]);
  });
});

describe('a value that picked one form of a union is checked as that form', () => {
  it('object load: the error names the exact dimension and what is allowed', () => {
    const error = inputError(() => load(withStop({ load: { w: 'heavy' } })));
    expect(error.details).toEqual([{ path: 'stops[0].load.w', message: '"heavy" is not allowed; use a number ≥ 0' }]);
  });

  it('object capacity: every bad dimension is named, of drivers and of one-off routes', () => {
    const project_ = inputError(() => load(withDriver({ capacity: { w: -1, v: true } })));
    expect(project_.details.map((d) => d.path)).toEqual(['drivers[0].capacity.w', 'drivers[0].capacity.v']);
    expect(detailAt(project_, 'drivers[0].capacity.v').message).toBe('true is not allowed; use a number ≥ 0');
    const oneoff_ = inputError(() => load(oneoff({ routesData: [route('Van', { capacity: { w: null } })] })));
    expect(detailAt(oneoff_, 'routesData[0].constraints.capacity.w').message).toBe('null is not allowed; use a number ≥ 0');
  });

  it('default_load and one-off load objects are checked per dimension too', () => {
    const a = inputError(() => load(project({ settings: { default_load: { weight: '1' } } })));
    expect(a.details.map((d) => d.path)).toEqual(['settings.default_load.weight']);
    const b = inputError(() => load(oneoff({ ordersData: [order('A', { load: { weight: 1, volume: 'x' } })] })));
    expect(b.details.map((d) => d.path)).toEqual(['ordersData[0].load.volume']);
  });

  it('a value of no allowed form keeps the message listing every form', () => {
    const error = inputError(() => load(withStop({ load: [1, 2] })));
    expect(detailAt(error, 'stops[0].load').message).toBe(
      'a list is not allowed; use a number ≥ 0 or an object of named numbers ≥ 0 (e.g. {weight: 12, volume: 0.4})',
    );
    const speed = inputError(() => load(withDriver({ speed: { x: 1 } })));
    expect(detailAt(speed, 'drivers[0].speed').message).toMatch(/^an object is not allowed; use faster, fast/);
  });

  it('load dimensions must have a name', () => {
    const error = inputError(() => load(withStop({ load: { '': 1 } })));
    expect(detailAt(error, 'stops[0].load').message).toMatch(/dimension with an empty name is not allowed/);
  });
});

describe('time windows: an empty window is an error, an overnight one is not', () => {
  it('an empty one-off timeWindows entry (neither startTime nor endTime) is named', () => {
    const error = inputError(() => load(oneoff({ ordersData: [order('A', { timeWindows: [{ startTime: '08:00' }, {}] })] })));
    expect(error.details).toEqual([
      {
        path: 'ordersData[0].timeWindows[1]',
        message: 'has neither startTime nor endTime; give at least one (HH:mm), or remove the window',
      },
    ]);
  });

  it('an empty project time_windows entry is named', () => {
    const error = inputError(() => load(withStop({ time_windows: [{}] })));
    expect(detailAt(error, 'stops[0].time_windows[0]').message).toMatch(/^has neither start nor end/);
  });

  it('a window with only an end, or an end before its start (overnight), is accepted in both forms', () => {
    expect(() =>
      load(oneoff({ ordersData: [order('A', { timeWindows: [{ endTime: '10:00' }, { startTime: '22:00', endTime: '02:00' }] })] })),
    ).not.toThrow();
    expect(() =>
      load(
        project({ stops: [stop('A', { start: '22:00', end: '02:00' }), stop('B', { time_windows: [{ start: '23:00', end: '01:00' }] })] }),
      ),
    ).not.toThrow();
  });
});

describe('malformed values: the value given and what is allowed', () => {
  it('booleans given as strings are refused, each at its path', () => {
    const error = inputError(() => load(project({ settings: { strict_start: 'true', auto_balance: 'yes' } })));
    expect(error.details).toEqual([
      { path: 'settings.strict_start', message: '"true" is not allowed; use true or false' },
      { path: 'settings.auto_balance', message: '"yes" is not allowed; use true or false' },
    ]);
  });

  it('numbers too large to use (JSON 1e400, YAML .inf) and NaN say so', () => {
    const error = inputError(() => load(project({ stops: [stop('A', { duration: Infinity }), stop('B', {}, { lat: NaN, lng: 4 })] })));
    expect(detailAt(error, 'stops[0].duration').message).toBe(
      'Infinity (too large) is not allowed; use a number of minutes ≥ 0 (fractions allowed)',
    );
    expect(detailAt(error, 'stops[1].location.coords.lat').message).toBe(
      'NaN (not a number) is not allowed; use a latitude from -90 to 90',
    );
  });

  it('NaN-like and numeric strings are not numbers', () => {
    const error = inputError(() => load(oneoff({ options: { defaultOrderDuration: 'NaN', squashDuration: '5' } })));
    expect(error.details.map((d) => d.message)).toEqual([
      '"5" is not allowed; use a number of minutes ≥ 0 (fractions allowed)',
      '"NaN" is not allowed; use a number of minutes ≥ 0 (fractions allowed)',
    ]);
  });

  it('empty or blank names are refused for the project, drivers and stops', () => {
    const error = inputError(() => load(project({ name: '', drivers: [driver('  ')], stops: [stop('')] })));
    expect(error.details.map((d) => d.path)).toEqual(['name', 'drivers[0].name', 'stops[0].name']);
  });

  it('entries that are not objects are each named', () => {
    const error = inputError(() => load(project({ drivers: [null], stops: [null, 5, 's'] })));
    expect(error.details.map((d) => `${d.path}: ${d.message}`)).toEqual([
      'drivers[0]: null is not allowed; use a driver object',
      'stops[0]: null is not allowed; use a stop object',
      'stops[1]: 5 is not allowed; use a stop object',
      'stops[2]: "s" is not allowed; use a stop object',
    ]);
  });
});

describe('one error per mistake', () => {
  it('one-off constraints of the wrong type are one error, not also a missing start location', () => {
    const error = inputError(() => load(oneoff({ routesData: [{ name: 'Van', constraints: 'x' }] })));
    expect(error.details).toEqual([{ path: 'routesData[0].constraints', message: '"x" is not allowed; use a constraints object' }]);
  });
});
