/** `routeplan validate <file>`: check a problem, print its summary and warnings; exit 0 or 2. */
import type { Command } from 'commander';
import { loadProblemFile, problemSummaryLines } from '../../input/index.js';
import type { LoadedProblem } from '../../input/index.js';
import { addSettingOptions, commandSettings, loadFormat, loadOptions } from '../options.js';
import { colorEnabled, formatWarning, runCommand } from '../present.js';
import { spinnerAllowed, startFetchProgress } from '../progress.js';

interface ValidateFlags {
  allowUnresolved?: boolean;
  inputFormat?: string;
  format?: string;
  json?: boolean;
  color?: boolean;
}

export function registerValidate(program: Command): void {
  const command = program
    .command('validate')
    .description('check a problem file and print a summary and its warnings (exit 0 valid, 2 invalid)')
    .argument('<file>', 'problem file (.json, .yaml, .csv, or a benchmark with --format); "-" reads stdin')
    .action(async (file: string, flags: ValidateFlags) => {
      const color = colorEnabled(flags);
      await runCommand({ json: flags.json === true, color }, async () => {
        const format = loadFormat(file, flags);
        const config = commandSettings('validate', { ...flags });
        const fetching = startFetchProgress({ enabled: spinnerAllowed(process.stderr), color });
        const loaded = await loadProblemFile(
          file,
          loadOptions(format, config, {
            onTravelProgress: (done, total) => fetching.update(done, total),
            ...(flags.allowUnresolved ? { allowUnresolved: true } : {}),
          }),
        ).finally(() => fetching.stop());
        process.stdout.write(flags.json ? `${JSON.stringify(validationJson(loaded), null, 2)}\n` : validationText(loaded));
      });
    });
  addSettingOptions(command, 'validate');
}

export function validationText(loaded: LoadedProblem): string {
  // The summary already counts the warnings; they are listed here because they are validate's result.
  const lines = [...problemSummaryLines(loaded)];
  for (const warning of loaded.warnings) lines.push(`  warning: ${formatWarning(warning)}`);
  lines.push('Valid.');
  return `${lines.join('\n')}\n`;
}

export function validationJson(loaded: LoadedProblem): unknown {
  return {
    valid: true,
    kind: loaded.kind,
    summary: problemSummaryLines(loaded),
    warnings: loaded.warnings,
  };
}
