/** The command-line program: commands, usage-error handling and the top-level error net. */
import { Command, CommanderError } from 'commander';
import { ExitCode } from '../errors.js';
import { registerGeocode } from './commands/geocode.js';
import { registerPoll } from './commands/poll.js';
import { registerServe } from './commands/serve.js';
import { registerSolve } from './commands/solve.js';
import { registerSubmit } from './commands/submit.js';
import { registerValidate } from './commands/validate.js';
import { reportError } from './present.js';
import { packageVersion } from './version.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('routeplan')
    .description('Route planner for delivery teams: validate, solve locally, serve and submit routing problems.')
    .version(packageVersion(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    // Usage errors must exit 2, not commander's 1; subcommands inherit this when created after it.
    .exitOverride();
  registerSolve(program);
  registerValidate(program);
  registerSubmit(program);
  registerPoll(program);
  registerServe(program);
  registerGeocode(program);
  return program;
}

/**
 * Commander's own exits: asked-for help and the version are successes; everything else,
 * including help shown because no command was given, is a usage error.
 */
export function usageExitCode(error: CommanderError): number {
  return error.exitCode === 0 ? ExitCode.ok : ExitCode.invalidInput;
}

function usageErrorJson(error: CommanderError): string {
  const message = error.message.replace(/^error:\s*/, '');
  return `${JSON.stringify({ error: { code: 'usage', message, details: [] } })}\n`;
}

export async function main(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      const code = usageExitCode(error);
      // Commander has already printed the message on stderr.
      if (code !== ExitCode.ok && argv.includes('--json')) process.stdout.write(usageErrorJson(error));
      process.exitCode = code;
      return;
    }
    process.exitCode = reportError(error, { json: argv.includes('--json') });
  }
}
