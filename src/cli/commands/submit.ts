/**
 * `routeplan submit <file>`: validate locally (same errors and warnings as `validate`, without
 * building the travel matrix: the service builds the problem), then send a one-off
 * problem to POST /schedules or a project to POST /v1.0/project; `--wait` follows the action.
 * Each submission carries an Idempotency-Key (fresh, or `--idempotency-key`), so a retry after a
 * lost answer, or a CI re-run with the same key, gets the first action instead of a second one.
 */
import type { Command } from 'commander';
import { connect } from '../../client/connection.js';
import { newIdempotencyKey, submitProject, submitSchedule } from '../../client/service.js';
import { followAction, followOptionsOf, noteUnlessQuiet } from '../follow.js';
import { InputError } from '../../errors.js';
import { validateProblemFile } from '../../input/index.js';
import { addSettingOptions, commandSettings, loadFormat } from '../options.js';
import { geocodeDocument } from '../../input/index.js';
import { geocoderSettingsFrom } from '../../geocode/settings.js';
import type { GeocoderSettings } from '../../geocode/types.js';
import type { RouteplanConfig } from '../../config/config.js';
import { packageVersion } from '../version.js';
import type { ValidatedDocument } from '../../input/index.js';
import { colorEnabled, printWarnings, runCommand } from '../present.js';

interface SubmitFlags {
  inputFormat?: string;
  wait?: boolean;
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

export function registerSubmit(program: Command): void {
  const command = program
    .command('submit')
    .description('validate a problem and submit it to a routeplan service (one-off → action id; project → id and page URL)')
    .argument('<file>', 'problem file (.json, .yaml, .csv); "-" reads stdin with --input-format')
    .action(async (file: string, flags: SubmitFlags) => {
      const color = colorEnabled(flags);
      await runCommand({ json: flags.json === true, color }, async () => {
        const settings = commandSettings('submit', { ...flags });
        const idempotencyKey = settings.idempotencyKey ?? newIdempotencyKey();
        const loaded = await loadedForSubmission(file, flags, settings, color);
        const note = noteUnlessQuiet(flags.quiet);
        // The replay line is for people; a script reading --json gets exactly the answer it always got.
        const noteReplay = (what: string): void => {
          if (!flags.json) note(`the service already had this request: ${what}`);
        };
        const client = connect(settings, { note });
        if (loaded.kind === 'project') {
          const { created: project, replayed } = await submitProject(client, loaded.document, idempotencyKey);
          if (replayed) noteReplay(`project ${project.id}`);
          process.stdout.write(flags.json ? `${JSON.stringify(project, null, 2)}\n` : `${project.id} ${project.url}\n`);
          return;
        }
        const { created: ack, replayed } = await submitSchedule(client, loaded.document, idempotencyKey);
        if (replayed) noteReplay(`action ${ack.actionUuid}`);
        await followAction(client, ack, followOptionsOf(flags, color, settings.timeoutMs));
      });
    });
  addSettingOptions(command, 'submit');
}

/** Validated (and, with a geocoder here, geocoded) like `validate` does; refuses what the service cannot take. */
async function loadedForSubmission(
  file: string,
  flags: SubmitFlags,
  settings: RouteplanConfig,
  color: boolean,
): Promise<ValidatedDocument> {
  const format = loadFormat(file, { ...(flags.inputFormat !== undefined ? { inputFormat: flags.inputFormat } : {}) });
  const geocoder = geocoderSettingsFrom(settings, packageVersion());
  // Without a geocoder here, addresses without coordinates are the service's to geocode (it refuses them if it cannot).
  const validated = await validateProblemFile(file, {
    ...(geocoder ? { geocoder } : { addressesGeocodedElsewhere: true }),
    ...(format !== undefined ? { format } : {}),
  });
  const loaded = await geocodedInMemory(validated, geocoder);
  printWarnings(loaded.warnings, { quiet: flags.quiet === true, color });
  if (loaded.kind === 'benchmark') {
    throw new InputError('benchmark instances cannot be submitted to the service; solve them locally with "routeplan solve"', [
      { path: file, message: 'a benchmark instance, not a project or a one-off problem' },
    ]);
  }
  if (loaded.kind === 'project' && flags.wait) {
    throw new InputError('--wait applies to one-off problems: a project is optimized from its page, not by its submission', [
      { path: '--wait', message: 'not available for projects' },
    ]);
  }
  return loaded;
}

/** With a geocoder configured here, the service gets coordinates: addresses are geocoded before sending. */
async function geocodedInMemory(validated: ValidatedDocument, geocoder: GeocoderSettings | undefined): Promise<ValidatedDocument> {
  if (!geocoder || validated.kind === 'benchmark') return validated;
  const { document, warnings } = await geocodeDocument(validated.document as Record<string, unknown>, validated.kind, geocoder);
  return { ...validated, document, warnings: [...validated.warnings, ...warnings] };
}
