/**
 * The travel sources by name, and what each needs besides its name: the one list the settings
 * (flags, environment, configuration files) accept and the type of every source name derive from.
 * It sits in the model, below travel/, because the Problem names its road source. A provider is a
 * file of src/travel/ exporting a TravelProvider, its line here, and its line in
 * src/travel/index.ts's PROVIDERS (the compiler asks for that one).
 */
export const TRAVEL_SOURCES = {
  /** The offline model (src/model/travel.ts): straight-line distance × road factor. */
  haversine: 'nothing',
  osrm: 'server',
  valhalla: 'server',
  matrix: 'file',
} as const satisfies Record<string, 'nothing' | 'server' | 'file'>;

export type TravelSourceName = keyof typeof TRAVEL_SOURCES;

export const TRAVEL_SOURCE_NAMES = Object.keys(TRAVEL_SOURCES) as TravelSourceName[];

/** The source when none is configured. */
export const DEFAULT_TRAVEL_SOURCE: TravelSourceName = 'haversine';
