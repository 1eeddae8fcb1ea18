/**
 * The settings a configuration file may hold (decisions.md: flags > environment > project file >
 * user file): the service connection, the solve, the travel model and source, the geocoder. Every
 * command reads and checks them all, so a broken file or variable is reported wherever it is used.
 */
import { TRAVEL_SOURCE_NAMES } from '../model/travel-sources.js';
import { httpUrl, integerIn, numberIn, oneOf, parseApiKey, parseEmail, parsePath, parseProfile, parseSwitch } from './parse.js';
import { setting } from './setting.js';

export const MAX_THREADS = 256;

/** The wall-clock bound of a solve when none is configured: `solve` and each action of `serve` alike. */
export const DEFAULT_TIME_LIMIT_SECONDS = 5;
export const DEFAULT_SEED = 0;

const TRAVEL_COMMANDS = ['solve', 'validate', 'serve'] as const;
/** The geocoder and the disk cache: what every command that reads a problem's addresses takes. */
const GEOCODER_COMMANDS = ['solve', 'validate', 'serve', 'geocode', 'submit'] as const;
const EXAMPLE_URL = 'https://routes.example.com';

const CONNECTION = [
  setting({
    key: 'baseUrl',
    flag: '--remote <base-url>',
    env: 'ROUTEPLAN_BASE_URL',
    file: 'base_url',
    // Credentials in it are refused by the client that uses it, so other commands still run with it set.
    parse: httpUrl(EXAMPLE_URL),
    help: 'service base URL (or ROUTEPLAN_BASE_URL, or base_url in the config file)',
    commands: ['submit', 'poll', 'optimize'],
  }),
  setting({
    key: 'apiKey',
    flag: '--api-key <key>',
    env: 'ROUTEPLAN_API_KEY',
    file: 'api_key',
    parse: parseApiKey,
    help: 'API key (or ROUTEPLAN_API_KEY, or api_key in the config file)',
    commands: ['submit', 'poll', 'optimize'],
  }),
] as const;

const SOLVE = [
  setting({
    key: 'timeLimit',
    flag: '--time-limit <seconds>',
    env: 'ROUTEPLAN_TIME_LIMIT',
    file: 'time_limit',
    parse: numberIn({ min: 0, minInclusive: false, max: 86_400 }, 'seconds'),
    default: DEFAULT_TIME_LIMIT_SECONDS,
    help: {
      solve: `wall-clock limit of the search (default ${DEFAULT_TIME_LIMIT_SECONDS})`,
      serve: `time limit of each solve (default ${DEFAULT_TIME_LIMIT_SECONDS})`,
    },
    commands: ['solve', 'serve'],
  }),
  setting({
    key: 'seed',
    flag: '--seed <n>',
    env: 'ROUTEPLAN_SEED',
    file: 'seed',
    parse: integerIn(0, 2 ** 32 - 1),
    default: DEFAULT_SEED,
    help: {
      solve: `random seed; same input, seed and limits give the same plan (default ${DEFAULT_SEED})`,
      serve: `seed of each solve (default ${DEFAULT_SEED})`,
    },
    commands: ['solve', 'serve'],
  }),
  setting({
    key: 'threads',
    flag: '--threads <n>',
    env: 'ROUTEPLAN_THREADS',
    file: 'threads',
    parse: integerIn(1, MAX_THREADS),
    help: 'worker threads (default 1)',
    commands: ['solve'],
  }),
] as const;

const TRAVEL = [
  setting({
    key: 'roadFactor',
    flag: '--road-factor <factor>',
    env: 'ROUTEPLAN_ROAD_FACTOR',
    file: 'road_factor',
    parse: numberIn({ min: 1, minInclusive: true, max: 10 }, 'a multiplier of the straight-line distance'),
    help: 'offline model: road distance ÷ straight-line distance (default 1.3)',
    commands: TRAVEL_COMMANDS,
  }),
  setting({
    key: 'baseSpeed',
    flag: '--base-speed <kmh>',
    env: 'ROUTEPLAN_BASE_SPEED',
    file: 'base_speed',
    parse: numberIn({ min: 0, minInclusive: false, max: 300 }, 'km/h'),
    help: 'offline model: base driving speed in km/h (default 40)',
    commands: TRAVEL_COMMANDS,
  }),
  setting({
    key: 'travel',
    flag: '--travel <source>',
    env: 'ROUTEPLAN_TRAVEL',
    file: 'travel',
    parse: oneOf(TRAVEL_SOURCE_NAMES, 'a travel source'),
    help: `travel times from: ${TRAVEL_SOURCE_NAMES.map((name, i) => (i === 0 ? `${name} (offline, default)` : name))
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1')}`,
    commands: TRAVEL_COMMANDS,
  }),
  setting({
    key: 'travelUrl',
    flag: '--travel-url <url>',
    env: 'ROUTEPLAN_TRAVEL_URL',
    file: 'travel_url',
    parse: httpUrl(EXAMPLE_URL),
    help: 'the OSRM or Valhalla server, e.g. http://localhost:5000',
    commands: TRAVEL_COMMANDS,
  }),
  setting({
    key: 'travelProfile',
    flag: '--travel-profile <name>',
    env: 'ROUTEPLAN_TRAVEL_PROFILE',
    file: 'travel_profile',
    parse: parseProfile,
    help: 'the routing profile (default: driving for OSRM, auto for Valhalla)',
    commands: TRAVEL_COMMANDS,
  }),
  setting({
    key: 'travelMatrix',
    flag: '--travel-matrix <file>',
    env: 'ROUTEPLAN_TRAVEL_MATRIX',
    file: 'travel_matrix',
    parse: parsePath,
    help: 'with --travel matrix: CSV from,to,duration_s,distance_m or JSON {locations, durations, distances}',
    commands: TRAVEL_COMMANDS,
  }),
  setting({
    key: 'travelMaxLocations',
    flag: '--travel-max-locations <n>',
    env: 'ROUTEPLAN_TRAVEL_MAX_LOCATIONS',
    file: 'travel_max_locations',
    parse: integerIn(2, 1_000_000),
    help: 'per request: coordinates for OSRM (default 100), pairs for Valhalla (default 2500)',
    commands: TRAVEL_COMMANDS,
  }),
  setting({
    key: 'cache',
    flag: '--no-cache',
    env: 'ROUTEPLAN_CACHE',
    file: 'cache',
    parse: parseSwitch,
    help: 'neither read nor write the disk cache of travel times and geocoded addresses',
    commands: GEOCODER_COMMANDS,
  }),
] as const;

const GEOCODER = [
  setting({
    key: 'geocoder',
    flag: '--geocoder <name>',
    env: 'ROUTEPLAN_GEOCODER',
    file: 'geocoder',
    parse: oneOf(['nominatim', 'gazetteer'], 'a geocoder'),
    help: 'for addresses without coordinates: nominatim (with --geocoder-url) or gazetteer',
    commands: GEOCODER_COMMANDS,
  }),
  setting({
    key: 'geocoderUrl',
    flag: '--geocoder-url <url>',
    env: 'ROUTEPLAN_GEOCODER_URL',
    file: 'geocoder_url',
    parse: httpUrl(EXAMPLE_URL),
    help: 'a Nominatim-compatible search API, e.g. http://localhost:8080',
    commands: GEOCODER_COMMANDS,
  }),
  setting({
    key: 'gazetteer',
    flag: '--gazetteer <file>',
    env: 'ROUTEPLAN_GAZETTEER',
    file: 'gazetteer',
    parse: parsePath,
    help: 'CSV address,lat,lng: addresses matched offline (implies --geocoder gazetteer)',
    commands: GEOCODER_COMMANDS,
  }),
  setting({
    key: 'geocoderEmail',
    flag: '--geocoder-email <address>',
    env: 'ROUTEPLAN_GEOCODER_EMAIL',
    file: 'geocoder_email',
    parse: parseEmail,
    help: 'a contact e-mail sent with each geocoding request (Nominatim asks for one)',
    commands: GEOCODER_COMMANDS,
  }),
] as const;

export const SHARED_SETTINGS = [...CONNECTION, ...SOLVE, ...TRAVEL, ...GEOCODER] as const;
