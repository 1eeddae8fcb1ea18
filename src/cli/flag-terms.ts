/**
 * The input layer names its settings (input/settings.ts); on the command line they are flags, so
 * an error about a setting is shown in its flag's terms, exactly as the flags are spelt.
 */
import { InputError } from '../errors.js';
import type { RouteplanError } from '../errors.js';
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
  roadFactor: { flag: '--road-factor', phrase: 'roadFactor: ', flagPhrase: '--road-factor: ' },
  baseSpeedKmh: { flag: '--base-speed', phrase: 'baseSpeedKmh: ', flagPhrase: '--base-speed: ' },
};

function termsAt(path: string): FlagTerms | undefined {
  return Object.hasOwn(FLAGS, path) ? FLAGS[path as SettingName] : undefined;
}

/** The error as the command line shows it: settings named by their flags. Other errors are unchanged. */
export function inFlagTerms(error: RouteplanError): RouteplanError {
  if (!(error instanceof InputError)) return error;
  // The format request is a phrase of its own; a setting's name is replaced only in an error about it.
  let message = error.message.replaceAll(FLAGS.format.phrase, FLAGS.format.flagPhrase);
  const details = error.details.map((detail) => {
    const terms = termsAt(detail.path);
    if (terms === undefined) return detail;
    message = message.replaceAll(terms.phrase, terms.flagPhrase);
    return { ...detail, path: terms.flag };
  });
  const changed = message !== error.message || details.some((detail, i) => detail !== error.details[i]);
  return changed ? new InputError(message, details, error.code) : error;
}
