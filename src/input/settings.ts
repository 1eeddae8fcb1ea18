/**
 * How the input layer's messages name its load options. It serves the command line, the service
 * and the tests, so an error names a setting (its `LoadOptions` key as the path), never a
 * command-line flag; the CLI shows each setting as its flag (cli/present.ts).
 */
export type SettingName = 'format' | 'roadFactor' | 'baseSpeedKmh';

/** How a message asks for the format of a file it cannot tell. */
export const FORMAT_REQUEST = 'give the input format (json, yaml or csv; solomon or vrplib for a benchmark instance)';
