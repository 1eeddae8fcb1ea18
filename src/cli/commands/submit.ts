/**
 * `routeplan submit <file>`: validate locally (same errors and warnings as `validate`, without
 * building the travel matrix: the service builds the problem), then send a one-off
 * problem to POST /schedules or a project to POST /v1.0/project; `--wait` follows the action.
 */
import type { Command } from 'commander';
import { connect, parseTimeoutSeconds, type ConnectionFlags } from '../../client/connection.js';
import { planOf, submitProject, submitSchedule, waitForAction } from '../../client/service.js';
import { InputError } from '../../errors.js';
import { validateProblemFile } from '../../input/index.js';
import { addGeocoderOptions, loadFormat, parseTravelFlags, type TravelFlags } from '../options.js';
import { geocodeDocument } from '../../input/index.js';
import { geocoderSettingsFrom } from '../../geocode/settings.js';
import type { GeocoderSettings } from '../../geocode/types.js';
import { resolveConfig } from '../../config/config.js';
import { packageVersion } from '../version.js';
import type { ValidatedDocument } from '../../input/index.js';
import { colorEnabled, printPlan, printWarnings, runCommand } from '../present.js';
import { DEFAULT_WAIT_SECONDS } from './poll.js';

interface SubmitFlags extends ConnectionFlags, TravelFlags {
  inputFormat?: string;
  wait?: boolean;
  timeout?: string;
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

export function registerSubmit(program: Command): void {
  const command = program
    .command('submit')
    .description('validate a problem and submit it to a routeplan service (one-off → action id; project → id and page URL)')
    .argument('<file>', 'problem file (.json, .yaml, .csv); "-" reads stdin with --input-format')
    .option('--remote <base-url>', 'service base URL (or ROUTEPLAN_BASE_URL, or base_url in the config file)')
    .option('--api-key <key>', 'API key (or ROUTEPLAN_API_KEY, or api_key in the config file)')
    .option('--api-key-file <file>', 'a file holding the API key (safer than --api-key, which other users can see in ps)')
    .option('--input-format <format>', 'format of the input: json, yaml or csv (required for "-")')
    .option('--wait', 'one-off problems: wait for the action to end and print the plan')
    .option('--timeout <seconds>', `with --wait: give up after this long (default ${DEFAULT_WAIT_SECONDS})`)
    .option('--json', 'print the service response (or, with --wait, the plan) as JSON')
    .option('-q, --quiet', 'no notes or warnings on stderr')
    .option('--no-color', 'no colour in the output')
    .action(async (file: string, flags: SubmitFlags) => {
      const color = colorEnabled(flags);
      await runCommand({ json: flags.json === true, color }, async () => {
        const timeoutSeconds = parseTimeoutSeconds(flags.timeout, DEFAULT_WAIT_SECONDS);
        const format = loadFormat(file, { ...(flags.inputFormat !== undefined ? { inputFormat: flags.inputFormat } : {}) });
        const geocoder = geocoderSettingsFrom(resolveConfig(parseTravelFlags(flags)), packageVersion());
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
        const note = (message: string): void => {
          if (!flags.quiet) process.stderr.write(`routeplan: ${message}\n`);
        };
        const client = connect(flags, { note });
        if (loaded.kind === 'project') {
          const project = await submitProject(client, loaded.document);
          process.stdout.write(flags.json ? `${JSON.stringify(project, null, 2)}\n` : `${project.id} ${project.url}\n`);
          return;
        }
        const ack = await submitSchedule(client, loaded.document);
        if (!flags.wait) {
          process.stdout.write(flags.json ? `${JSON.stringify(ack, null, 2)}\n` : `${ack.actionUuid}\n`);
          note(`submitted; follow it with "routeplan poll ${ack.actionUuid}"`);
          return;
        }
        note(`submitted as ${ack.actionUuid}; waiting for the plan`);
        const action = await waitForAction(client, ack.actionUuid, { timeoutMs: timeoutSeconds * 1000 });
        await printPlan(planOf(action), { json: flags.json === true, color });
      });
    });
  addGeocoderOptions(command);
}

/** With a geocoder configured here, the service gets coordinates: addresses are geocoded before sending. */
async function geocodedInMemory(validated: ValidatedDocument, geocoder: GeocoderSettings | undefined): Promise<ValidatedDocument> {
  if (!geocoder || validated.kind === 'benchmark') return validated;
  const { document, warnings } = await geocodeDocument(validated.document as Record<string, unknown>, validated.kind, geocoder);
  return { ...validated, document, warnings: [...validated.warnings, ...warnings] };
}
