/** The command-line program: commands, usage-error handling and the top-level error net. */
import { Command, CommanderError } from 'commander';
import { ExitCode } from '../errors.js';
import { reportError } from './present.js';
import { packageVersion } from './version.js';

type Register = (program: Command) => void;

/**
 * Each command's module, loaded only when it runs: the service alone (fastify, the mailer) costs
 * a quarter of a second to load, which a `solve` of 25 stops should not pay.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  solve: async () => (await import('./commands/solve.js')).registerSolve,
  validate: async () => (await import('./commands/validate.js')).registerValidate,
  submit: async () => (await import('./commands/submit.js')).registerSubmit,
  poll: async () => (await import('./commands/poll.js')).registerPoll,
  optimize: async () => (await import('./commands/optimize.js')).registerOptimize,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  geocode: async () => (await import('./commands/geocode.js')).registerGeocode,
};

/** The program with the command `argv` names, or with all of them (for help, and to name an unknown one). */
export async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command();
  program
    .name('routeplan')
    .description('Route planner for delivery teams: validate, solve locally, serve and submit routing problems.')
    .version(packageVersion(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    // Usage errors must exit 2, not commander's 1; subcommands inherit this when created after it.
    .exitOverride();
  const named = argv.slice(2).find((arg) => !arg.startsWith('-'));
  const versionOnly = named === undefined && argv.some((arg) => arg === '-V' || arg === '--version');
  const wanted = versionOnly ? [] : named !== undefined && named in COMMANDS ? [named] : Object.keys(COMMANDS);
  for (const register of await Promise.all(wanted.map((name) => COMMANDS[name]!()))) register(program);
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
  const program = await buildProgram(argv);
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
