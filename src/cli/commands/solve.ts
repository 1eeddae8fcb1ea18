/** `routeplan solve <file>`: load, solve locally with the built-in solver, print or write the plan. */
import type { Command } from 'commander';
import { ExitCode, InputError } from '../../errors.js';
// Not from input/index.js, which brings the validation schemas even where the file needs none (load-file.ts).
import { loadProblemFile } from '../../input/load-file.js';
import type { Problem } from '../../model/problem.js';
import { buildPlan } from '../../output/plan.js';
import type { Plan } from '../../output/plan-types.js';
import type { SolveOptions, SolveResult } from '../../solver/types.js';
import { timeLimitMsOf, type CommandConfig } from '../../config/config.js';
import { addSettingOptions, commandSettings, loadFormat, loadOptions } from '../options.js';
import { colorEnabled, outputFormatFor, printPlan, printWarnings, runCommand } from '../present.js';
import type { OutputFormat, PrintPlanOptions } from '../present.js';
import { spinnerAllowed, startFetchProgress, startSolveSpinner } from '../progress.js';
import type { SolveSpinner } from '../progress.js';
import { solveInThreads } from '../../threads/searches.js';
import { avoidedRoads, withRoadGeometry } from '../../travel/plan-geometry.js';
import { travelSettingsFrom } from '../../travel/settings.js';
import { commandBudget, type CommandBudget } from '../time-budget.js';
import { EarlyWorker } from '../early-worker.js';

/** The switches and texts of `solve` read as they are; the settings with values come from commandSettings. */
interface SolveFlags {
  allowUnresolved?: boolean;
  inputFormat?: string;
  format?: string;
  fullTime?: boolean;
  json?: boolean;
  output?: string;
  outputFormat?: string;
  failOnUnserved?: boolean;
  quiet?: boolean;
  color?: boolean;
}

export function registerSolve(program: Command): void {
  const command = program
    .command('solve')
    .description('plan the routes of a problem with the built-in solver')
    .argument('<file>', 'problem file (.json, .yaml, .csv, or a benchmark with --format); "-" reads stdin')
    .action(async (file: string, flags: SolveFlags) => {
      const color = colorEnabled(flags);
      await runCommand({ json: flags.json === true, color }, () => solveCommand(file, flags, color));
    });
  addSettingOptions(command, 'solve');
}

async function solveCommand(file: string, flags: SolveFlags, color: boolean): Promise<number> {
  // Every usage mistake is reported before anything is read or solved.
  const format = loadFormat(file, flags);
  const config = commandSettings('solve', { ...flags });
  let outputFormat: OutputFormat | undefined;
  if (flags.output !== undefined) outputFormat = outputFormatFor(flags.output, flags.outputFormat as OutputFormat | undefined);
  else if (flags.outputFormat !== undefined) {
    throw new InputError('--output-format needs --output <file>', [{ path: '--output-format', message: 'given without --output' }]);
  }

  const interrupt = new InterruptGuard();
  const early = await EarlyWorker.forFile(file);
  try {
    const loaded = await loadWithProgress(file, format, config, flags);
    printWarnings(loaded.warnings, { quiet: flags.quiet === true, color: colorEnabled(flags, process.stderr) });

    const spinner = startSolveSpinner({
      enabled: spinnerAllowed(process.stderr) && flags.quiet !== true,
      color: colorEnabled(flags, process.stderr),
    });
    interrupt.onSolving(() => spinner.note('stopping…'));
    let result: SolveResult;
    try {
      // The limit counts from the command's start: loading took its share, output keeps one.
      const budget = commandBudget(timeLimitMsOf(config), loaded.problem.stops.length);
      const options = {
        ...solveOptions(config, interrupt.signal, spinner),
        ...(budget.endsAt !== undefined ? { endsAt: budget.endsAt } : {}),
        ...(flags.fullTime ? { fullTime: true } : {}),
      };
      const inline = (options.threads ?? 1) === 1 && loaded.problem.stops.length <= INLINE_MAX_STOPS;
      const how = inline ? { inline: true } : { moveMatrices: true, started: early.take() };
      result = withBudget(await solveInThreads(loaded.problem, options, how), budget);
    } catch (error) {
      spinner.stop();
      throw error;
    } finally {
      interrupt.doneSolving();
    }
    spinner.stop(solvedText(result));
    // The road shapes after the search: a second of fetching never shortens the solve's time limit.
    const plan = await withRoadGeometry(buildPlan(loaded.problem, result), travelSettingsFrom(config), avoidedRoads(loaded.problem));
    printWarnings(plan.warnings ?? [], { quiet: flags.quiet === true, color: colorEnabled(flags, process.stderr) });
    if (interrupt.interrupted && flags.quiet !== true) {
      process.stderr.write('routeplan: interrupted; this is the best plan found so far\n');
    }
    await printPlan(plan, printOptions(loaded.problem, flags, color, outputFormat));
    return exitCodeFor(plan, { interrupted: interrupt.interrupted, failOnUnserved: flags.failOnUnserved === true });
  } finally {
    early.dispose();
    interrupt.dispose();
  }
}

/** The problem file loaded, with the progress of fetching its travel table shown meanwhile. */
async function loadWithProgress(file: string, format: ReturnType<typeof loadFormat>, config: CommandConfig, flags: SolveFlags) {
  const fetching = startFetchProgress({
    enabled: spinnerAllowed(process.stderr) && flags.quiet !== true,
    color: colorEnabled(flags, process.stderr),
  });
  try {
    return await loadProblemFile(
      file,
      loadOptions(format, config, {
        onTravelProgress: (done, total) => fetching.update(done, total),
        ...(flags.allowUnresolved ? { allowUnresolved: true } : {}),
      }),
    );
  } finally {
    fetching.stop();
  }
}

/**
 * Up to this many stops one search runs on the main thread: a worker costs a quarter of a second
 * to start (a small plan's whole search), and the search yields to the spinner and Ctrl-C every
 * 50 ms; the construction of a larger problem would hold the main thread for too long.
 */
const INLINE_MAX_STOPS = 1_000;

const STOP_REASONS: Record<SolveResult['stats']['stoppedBy'], string> = {
  time: 'time limit reached',
  iterations: 'iteration limit reached',
  no_improvement: 'the plan stopped improving',
  aborted: 'interrupted',
  complete: 'search complete',
};

/** The result with how the command's limit was spent, for the plan's `solver` block. */
function withBudget(result: SolveResult, budget: CommandBudget): SolveResult {
  if (budget.endsAt === undefined) return result;
  const command = { limitMs: budget.limitMs, solveStartMs: budget.solveStartMs, outputReserveMs: budget.outputReserveMs };
  return { ...result, stats: { ...result.stats, command } };
}

export function solvedText(result: SolveResult): string {
  const { elapsedMs, iterations, stoppedBy } = result.stats;
  return `Solved in ${(elapsedMs / 1000).toFixed(1)} s · ${iterations} iterations · ${STOP_REASONS[stoppedBy]}`;
}

function solveOptions(config: CommandConfig, signal: AbortSignal, spinner: SolveSpinner): SolveOptions {
  const options: SolveOptions = {
    timeLimitMs: timeLimitMsOf(config),
    seed: config.seed,
    signal,
    onProgress: (progress) => spinner.update(progress),
  };
  if (config.maxIterations !== undefined) options.maxIterations = config.maxIterations;
  if (config.threads !== undefined) options.threads = config.threads;
  return { ...options, ...config.levers };
}

function printOptions(problem: Problem, flags: SolveFlags, color: boolean, outputFormat: OutputFormat | undefined): PrintPlanOptions {
  const benchmark = problem.surface === 'benchmark';
  const options: PrintPlanOptions = {
    json: flags.json === true,
    color,
    quiet: flags.quiet === true,
    rawUnits: benchmark,
    planar: benchmark,
    title: planTitle(problem),
  };
  if (flags.output !== undefined) options.output = flags.output;
  if (outputFormat !== undefined) options.outputFormat = outputFormat;
  return options;
}

function planTitle(problem: Problem): string {
  if (problem.name && problem.date) return `${problem.name} — ${problem.date}`;
  return problem.name ?? 'routeplan plan';
}

/** 130 when interrupted, else 5 with --fail-on-unserved and unserved stops, else 0. */
export function exitCodeFor(plan: Plan, options: { interrupted: boolean; failOnUnserved: boolean }): number {
  if (options.interrupted) return ExitCode.interrupted;
  if (options.failOnUnserved && plan.unserved.length > 0) return ExitCode.unserved;
  return ExitCode.ok;
}

/**
 * Ctrl-C while solving stops the search (the solver returns its best plan, which is printed,
 * then the exit code is 130); Ctrl-C before that, or a second one, exits at once with 130.
 */
class InterruptGuard {
  private readonly controller = new AbortController();
  private solvingNote: (() => void) | null = null;
  interrupted = false;

  private readonly handler = (): void => {
    if (this.interrupted || this.solvingNote === null) {
      process.stderr.write('\nrouteplan: interrupted\n');
      process.exit(ExitCode.interrupted);
    }
    this.interrupted = true;
    this.solvingNote();
    this.controller.abort();
  };

  constructor() {
    process.on('SIGINT', this.handler);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  onSolving(note: () => void): void {
    this.solvingNote = note;
  }

  doneSolving(): void {
    this.solvingNote = null;
  }

  dispose(): void {
    process.off('SIGINT', this.handler);
  }
}
