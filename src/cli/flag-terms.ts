/**
 * The input layer names its settings (input/settings.ts), and the travel and geocoding layers name
 * theirs by their keys in the settings table, in backticks (`travelUrl`); on the command line they
 * are flags, so an error about a setting is shown in its flag's terms, exactly as the flags are spelt.
 */
import { InputError, RouteplanError, RoutingError } from '../errors.js';
import { SETTINGS, flagName, settingRow, type ConfigKey } from '../config/settings.js';
import type { ErrorDetail } from '../errors.js';
import type { SettingName } from '../input/settings.js';
import { FORMAT_REQUEST } from '../input/settings.js';

interface FlagTerms {
  /** An error detail at the setting is at this flag. */
  flag: string;
  /** How messages spell the setting, and how the command line says it instead. */
  phrase: string;
  flagPhrase: string;
}

const FLAGS: Record<SettingName, FlagTerms> = {
  // One setting, two flags: the document formats and the benchmark formats.
  format: {
    flag: '--input-format',
    phrase: FORMAT_REQUEST,
    flagPhrase: 'pass --input-format json, yaml or csv (or --format solomon or vrplib for a benchmark instance)',
  },
  roadFactor: namedTerms('roadFactor', 'roadFactor'),
  // The load option's name is the model's (km/h); the setting's is the flag's.
  baseSpeedKmh: namedTerms('baseSpeedKmh', 'baseSpeed'),
};

/** A setting the input layer spells `name: ` in its messages, shown as the flag of the table's row. */
function namedTerms(name: SettingName, key: ConfigKey): FlagTerms {
  const flag = flagName(settingRow(key))!;
  return { flag, phrase: `${name}: `, flagPhrase: `${flag}: ` };
}

function termsAt(path: string): FlagTerms | undefined {
  return Object.hasOwn(FLAGS, path) ? FLAGS[path as SettingName] : undefined;
}

/** Each setting key with a flag → its flag (`travelUrl` → `--travel-url`). */
const FLAG_OF_SETTING = new Map(SETTINGS.flatMap((row) => (flagName(row) ? [[row.key as string, flagName(row)!]] : [])));

/** Backticked setting keys in a message, as flags. */
function flagsForKeys(message: string): string {
  return message.replace(/`([A-Za-z]+)`/g, (whole, key: string) => FLAG_OF_SETTING.get(key) ?? whole);
}

/** The error as the command line shows it: settings named by their flags. Other errors are unchanged. */
export function inFlagTerms(error: RouteplanError): RouteplanError {
  if (error instanceof RoutingError) {
    const message = flagsForKeys(error.message);
    return message === error.message ? error : new RoutingError(message, error.code, error.details, { cause: error });
  }
  if (!(error instanceof InputError)) return error;
  // The format request is a phrase of its own; a setting's name is replaced only in an error about it.
  let message = flagsForKeys(error.message.replaceAll(FLAGS.format.phrase, FLAGS.format.flagPhrase));
  const details = error.details.map((detail) => {
    const terms = termsAt(detail.path);
    if (terms === undefined) return settingDetail(detail);
    message = message.replaceAll(terms.phrase, terms.flagPhrase);
    return { ...detail, path: terms.flag };
  });
  const changed = message !== error.message || details.some((detail, i) => detail !== error.details[i]);
  return changed ? new InputError(message, details, error.code, { cause: error }) : error;
}

/** A detail at a setting of the table (travel, geocoding) is at its flag. */
function settingDetail(detail: ErrorDetail): ErrorDetail {
  const flag = FLAG_OF_SETTING.get(detail.path);
  const message = flagsForKeys(detail.message);
  return flag === undefined && message === detail.message ? detail : { path: flag ?? detail.path, message };
}

/** Runs a step whose errors name settings, and rethrows them in flag terms (for callers that do not print them). */
export function inFlagTermsOf<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw error instanceof RouteplanError ? inFlagTerms(error) : error;
  }
}
