/** Command-line options of `npm run bench`. Usage errors are thrown as UsageError (exit 2). */
import { BENCHMARK_SETS, type BenchmarkSet } from './benchmark-data.js';

export type BenchSet = BenchmarkSet | 'large' | 'anytime';

/** Solver levers the bench can switch off for an ablation row (`--without swap-star`). */
export const LEVERS = [
  'swap-star',
  'population',
  'prize-claim',
  'wider-ruin',
  'few-ls-neighbours',
  'changed-routes-only',
  'swap-star-near-only',
  'local-order',
  'fleet-minimisation',
  'fleet-at-stall',
  'penalised-capacity',
] as const;
export type Lever = (typeof LEVERS)[number];
/** Experimental levers, off by default, that the bench can switch on (`--with large-ls`; `--with swap-star`: also where windows bind). */
export const EXPERIMENTS = [
  'large-ls',
  'population',
  'swap-star',
  'few-ls-neighbours',
  'swap-star-sectors',
  'string-swaps',
  'changed-stops-only',
  'fleet-minimisation',
  'fleet-at-stall',
  'penalised-capacity',
] as const;
export type Experiment = (typeof EXPERIMENTS)[number];

export interface BenchArgs {
  set: BenchSet;
  timeSeconds: number;
  /** Instance-name prefixes (case-insensitive); empty = all. */
  filters: string[];
  seed: number;
  threads: number;
  /**
   * `--split on|off`: with --threads ≥ 2, decomposition (src/solver/decompose/search.ts) or independent
   * searches; `both`: each instance solved both ways, interleaved (order alternating per instance);
   * null: the solver's default.
   */
  split: 'on' | 'off' | 'both' | null;
  limit: number | null;
  /** Stop each solve after this many search iterations (reproducible runs); null = time only. */
  iterations: number | null;
  /** Large mode: generated size, or an existing problem file instead. */
  stops: number;
  vehicles: number;
  kind: 'project' | 'oneoff';
  input: string | null;
  /** Where results/ files go (default <repo>/results). */
  outDir: string | null;
  /** Print the local search's per-operator counters summed per family. */
  stats: boolean;
  /** `--prize-in-search`: the experimental prize moves on the search's candidates (SolveOptions.prizeInSearch), for its ablation row. */
  prizeInSearch: boolean;
  /** `--without <lever>` (repeatable): levers switched off in this run's solves (in-process and warm), for their ablation rows. */
  without: Lever[];
  /** `--with <experiment>` (repeatable): experimental levers switched on, for their rows. */
  with: Experiment[];
  /** `--vs vroom`: also run VROOM on every instance, interleaved with ours. */
  vs: 'vroom' | null;
  /** `--time vroom`: our limit per instance = VROOM's measured wall time on it (timeSeconds is NaN). */
  timeFromVroom: boolean;
  /** `--vroom-x`: VROOM's exploration level 0..5 (default 5); null when not given. */
  vroomExploration: number | null;
  /** `--vroom-bin`: null = $ROUTEPLAN_VROOM, else ../shared/peers/vroom/vroom. */
  vroomBin: string | null;
  /** `--markdown`: also print the versus table as Markdown (it is always written to results/). */
  markdown: boolean;
  /** `--process`: also solve each instance in a fresh `routeplan solve` process, as users run it. */
  process: boolean;
  /**
   * `--baseline <bin/routeplan>` (repeatable): with --process, other checkouts' binaries, run fresh per
   * instance too, each labelled by its checkout's folder.
   */
  baselines: string[];
  /** `--no-warm`: with --process, leave out the warm in-process solve (it doubles a long run's time). */
  warm: boolean;
}

export class UsageError extends Error {}

export const USAGE = `usage: npm run bench -- --set <${[...BENCHMARK_SETS, 'large', 'anytime'].join('|')}> --time <seconds>
       [--filter R1,RC2] [--seed n] [--threads n] [--split on|off|both] [--limit n] [--iterations n] [--out dir] [--stats] [--prize-in-search]
       [--without ${LEVERS.join('|')}] [--with ${EXPERIMENTS.join('|')}]
  versus VROOM (instance sets): --vs vroom [--vroom-x 0..5] [--vroom-bin path] [--markdown]
  fresh processes (instance sets): --process [--baseline other/bin/routeplan]... [--vs vroom --vroom-x 0] [--no-warm]
       --time <seconds>: both get it (VROOM as -l, stopping earlier when its -x search ends)
       --time vroom: VROOM runs first, then routeplan gets VROOM's measured wall time on that instance
  large only: [--stops 5000] [--vehicles 500] [--kind project|oneoff] [--input problem.json]`;

const SETS = new Set<string>([...BENCHMARK_SETS, 'large', 'anytime']);

export function parseBenchArgs(argv: string[]): BenchArgs {
  const args: BenchArgs = {
    set: 'solomon',
    timeSeconds: NaN,
    filters: [],
    seed: 0,
    threads: 1,
    split: null,
    limit: null,
    iterations: null,
    stops: 5000,
    vehicles: 500,
    kind: 'project',
    input: null,
    outDir: null,
    stats: false,
    prizeInSearch: false,
    without: [],
    with: [],
    vs: null,
    timeFromVroom: false,
    vroomExploration: null,
    vroomBin: null,
    markdown: false,
    process: false,
    baselines: [],
    warm: true,
  };
  let setGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const [name, inline] = flag.includes('=') ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)] : [flag, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '--set': {
        const set = value();
        if (!SETS.has(set)) throw new UsageError(`--set must be one of ${[...SETS].join(', ')}; got "${set}"`);
        args.set = set as BenchSet;
        setGiven = true;
        break;
      }
      case '--time': {
        const time = value();
        if (time === 'vroom') {
          args.timeFromVroom = true;
          args.timeSeconds = NaN;
        } else {
          args.timeFromVroom = false;
          args.timeSeconds = positiveNumber(name, time);
        }
        break;
      }
      case '--vs': {
        const peer = value();
        if (peer !== 'vroom') throw new UsageError(`--vs supports only vroom; got "${peer}"`);
        args.vs = peer;
        break;
      }
      case '--vroom-x':
        args.vroomExploration = integer(name, value(), 0);
        if (args.vroomExploration > 5) throw new UsageError(`--vroom-x must be 0..5; got ${args.vroomExploration}`);
        break;
      case '--vroom-bin':
        args.vroomBin = value();
        break;
      case '--markdown':
        args.markdown = true;
        break;
      case '--process':
        args.process = true;
        break;
      case '--baseline':
        args.baselines.push(value());
        break;
      case '--no-warm':
        args.warm = false;
        break;
      case '--filter':
        args.filters = value()
          .split(',')
          .map((f) => f.trim())
          .filter((f) => f !== '');
        break;
      case '--seed':
        args.seed = integer(name, value(), 0);
        break;
      case '--threads':
        args.threads = integer(name, value(), 1);
        break;
      case '--split': {
        const split = value();
        if (split !== 'on' && split !== 'off' && split !== 'both') throw new UsageError(`--split must be on, off or both; got "${split}"`);
        args.split = split;
        break;
      }
      case '--limit':
        args.limit = integer(name, value(), 1);
        break;
      case '--iterations':
        args.iterations = integer(name, value(), 1);
        break;
      case '--stops':
        args.stops = integer(name, value(), 1);
        break;
      case '--vehicles':
        args.vehicles = integer(name, value(), 1);
        break;
      case '--kind': {
        const kind = value();
        if (kind !== 'project' && kind !== 'oneoff') throw new UsageError(`--kind must be project or oneoff; got "${kind}"`);
        args.kind = kind;
        break;
      }
      case '--input':
        args.input = value();
        break;
      case '--out':
        args.outDir = value();
        break;
      case '--stats':
        args.stats = true;
        break;
      case '--prize-in-search':
        args.prizeInSearch = true;
        break;
      case '--without': {
        const lever = value();
        if (!(LEVERS as readonly string[]).includes(lever))
          throw new UsageError(`--without takes one of ${LEVERS.join(', ')}; got "${lever}"`);
        args.without.push(lever as Lever);
        break;
      }
      case '--with': {
        const experiment = value();
        if (!(EXPERIMENTS as readonly string[]).includes(experiment))
          throw new UsageError(`--with takes one of ${EXPERIMENTS.join(', ')}; got "${experiment}"`);
        args.with.push(experiment as Experiment);
        break;
      }
      case '--help':
      case '-h':
        throw new UsageError('');
      default:
        throw new UsageError(`unknown option ${flag}`);
    }
  }
  if (!setGiven) throw new UsageError('--set is required');
  const both = args.with.find((lever) => (args.without as readonly string[]).includes(lever));
  if (both !== undefined) throw new UsageError(`--with ${both} and --without ${both} exclude each other`);
  // The anytime row sweeps its own limits.
  if (Number.isNaN(args.timeSeconds) && !args.timeFromVroom && args.set !== 'anytime') throw new UsageError('--time <seconds> is required');
  if (args.timeFromVroom && args.vs !== 'vroom') throw new UsageError('--time vroom needs --vs vroom');
  if (args.vs !== null && (args.set === 'large' || args.set === 'anytime'))
    throw new UsageError(`--vs vroom runs on the instance sets, not --set ${args.set}`);
  if (args.vs === null && (args.vroomExploration !== null || args.vroomBin !== null || args.markdown)) {
    throw new UsageError('--vroom-x, --vroom-bin and --markdown need --vs vroom');
  }
  if (args.split === 'both' && args.vs !== null) throw new UsageError('--split both does not combine with --vs vroom');
  if (args.vs !== null && args.iterations !== null)
    throw new UsageError('--iterations does not apply with --vs vroom (compare at equal time)');
  checkProcessArgs(args);
  return args;
}

/** `--process` compares fresh processes at equal time on the instance sets. */
function checkProcessArgs(args: BenchArgs): void {
  if (args.baselines.length > 0 && !args.process) throw new UsageError('--baseline needs --process');
  if (!args.warm && !args.process) throw new UsageError('--no-warm needs --process');
  if (!args.process) return;
  if (args.set === 'large' || args.set === 'anytime') throw new UsageError(`--process runs on the instance sets, not --set ${args.set}`);
  if (args.timeFromVroom) throw new UsageError('--process needs --time <seconds>, not --time vroom');
  if (args.iterations !== null || args.split !== null || args.stats || args.markdown) {
    throw new UsageError('--process does not combine with --iterations, --split, --stats or --markdown');
  }
}

function positiveNumber(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${flag} must be a positive number; got "${text}"`);
  return value;
}

function integer(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`${flag} must be an integer ≥ ${min}; got "${text}"`);
  return value;
}
