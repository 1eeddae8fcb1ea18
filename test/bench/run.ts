/**
 * `npm run bench -- --set solomon|homberger-200|homberger-1000|cvrp-x|large --time <s> …`, or `--set anytime`
 *
 * Solves each instance (one at a time; the solver may use its threads), builds the JSON plan,
 * checks it with the independent checker, compares with the best-known value and prints per
 * instance and per family. Results also go to results/<set>-<timestamp>.{json,csv}.
 * With `--vs vroom`, VROOM runs on each instance too, interleaved with ours, and its plan is checked
 * the same way (test/bench/vroom.ts); a versus table per family also goes to results/…md.
 * With `--process`, each instance is also solved by fresh `routeplan solve` processes (process-run.ts).
 * Exit 1 if any plan (ours or VROOM's) is infeasible or any solve crashes, 2 on a usage error.
 */
import { join } from 'node:path';
import { parseBenchArgs, USAGE, UsageError, type BenchArgs } from './args.js';
import { benchmarksRoot, readBks, repoRoot, type BenchmarkSet } from './benchmark-data.js';
import { readFileSync } from 'node:fs';
import { loadBenchmarkText } from '../../src/input/benchmark/index.js';
import { benchInstance, leverOptions, selectInstances } from './instance-bench.js';
import { formatAnytimeRows, runAnytimeBench } from './anytime-bench.js';
import { formatLargeResult, runLargeBench } from './large-bench.js';
import { formatOperatorTable, sumOperatorsPerFamily } from './operator-report.js';
import { runProcessSet } from './process-run.js';
import {
  formatFamilyTable,
  formatInstanceHeader,
  formatInstanceRow,
  formatVersusMarkdown,
  formatVersusTable,
  summarizeFamilies,
  summarizeVersus,
  timestampStem,
  writeResultFiles,
  type InstanceResult,
  type PeerResult,
} from './report.js';
import { benchVroom, defaultVroomBin, VroomUnavailableError, vroomVersion, type VroomRunOptions } from './vroom.js';

async function runInstanceSet(args: BenchArgs & { set: BenchmarkSet }): Promise<boolean> {
  const entries = selectInstances(args.set, args.filters, args.limit);
  if (entries.length === 0) throw new UsageError(`no ${args.set} instance matches --filter ${args.filters.join(',')}`);
  const bks = readBks(args.set);
  const costDigits = args.set === 'cvrp-x' ? 0 : 1;
  const iterations = args.iterations === null ? '' : ` or ${args.iterations} iterations`;
  const vroom = args.vs === 'vroom' ? await vroomOptions(args) : null;
  if (args.process) return runProcessSet(args, vroom?.options ?? null);
  const timeText = args.timeFromVroom ? "VROOM's wall time" : `${args.timeSeconds} s${iterations}`;
  console.log(
    `${args.set}: ${entries.length} instances, ${timeText} each, seed ${args.seed}, threads ${args.threads} (data: ${benchmarksRoot()})`,
  );
  if (vroom !== null) {
    const limit = vroom.options.limitSec === null ? 'no -l' : `-l ${vroom.options.limitSec}`;
    const order = args.timeFromVroom ? 'VROOM first, then routeplan with its time' : 'order alternating per instance';
    console.log(
      `versus ${vroom.version} (${vroom.options.bin}): -x ${vroom.options.exploration} -t ${vroom.options.threads} ${limit}; interleaved, ${order}`,
    );
  }
  if (vroom !== null) {
    // VROOM is native code; give our JIT one untimed solve first so the first instance measures the
    // solver, not Node's warm-up (VROOM's fresh process start is in its times, a few ms).
    await benchInstance(
      args.set,
      entries[0]!,
      { timeLimitMs: 200, seed: args.seed, threads: args.threads, maxIterations: null, operatorStats: false, levers: {} },
      bks,
    );
  }
  console.log(formatInstanceHeader(vroom !== null));
  const results: InstanceResult[] = [];
  const splitResults: InstanceResult[] = [];
  for (const [i, entry] of entries.entries()) {
    const problem = vroom === null ? null : loadBenchmarkText(readFileSync(entry.path, 'utf8'), entry.format, entry.name);
    const bksDistance = bks.get(entry.name)?.distance ?? null;
    const vroomFirst = args.timeFromVroom || i % 2 === 0;
    let peer: PeerResult | undefined;
    if (vroom !== null && vroomFirst) peer = await benchVroom(problem!, bksDistance, vroom.options);
    const instanceOptions = {
      timeLimitMs: (args.timeFromVroom ? peer!.timeSec : args.timeSeconds) * 1000,
      seed: args.seed,
      threads: args.threads,
      maxIterations: args.iterations,
      operatorStats: args.stats,
      levers: leverOptions(args),
    };
    if (args.split === 'both') {
      // Both ways, interleaved, the order alternating per instance; each row tagged.
      for (const split of i % 2 === 0 ? [false, true] : [true, false]) {
        const result = await benchInstance(args.set, entry, { ...instanceOptions, split }, bks);
        result.instance = `${result.instance}${split ? ' split' : ' indep'}`;
        (split ? splitResults : results).push(result);
        console.log(formatInstanceRow(result, costDigits));
        for (const problem of result.problems.slice(0, 5)) console.log(`    ! ${problem}`);
      }
      continue;
    }
    const result = await benchInstance(
      args.set,
      entry,
      { ...instanceOptions, ...(args.split === null ? {} : { split: args.split === 'on' }) },
      bks,
    );
    if (vroom !== null && !vroomFirst) peer = await benchVroom(problem!, bksDistance, vroom.options);
    if (peer !== undefined) result.vroom = peer;
    results.push(result);
    console.log(formatInstanceRow(result, costDigits));
    for (const problem of result.problems.slice(0, 5)) console.log(`    ! ${problem}`);
    if (result.problems.length > 5) console.log(`    ! … ${result.problems.length - 5} more`);
    if (result.missedInserts.length > 0)
      console.log(`    ~ ${result.missedInserts.length} unserved would still fit, e.g. ${result.missedInserts[0]}`);
    for (const problem of peer?.problems.slice(0, 5) ?? []) console.log(`    ! VROOM: ${problem}`);
    if (peer !== undefined && peer.problems.length > 5) console.log(`    ! VROOM: … ${peer.problems.length - 5} more`);
    for (const note of peer?.notes ?? []) console.log(`    note VROOM: ${note}`);
  }
  const families = summarizeFamilies(results);
  const both = args.split === 'both' ? ' — independent searches (--split off)' : '';
  console.log(`\nMean gap to BKS per family (only feasible plans that serve every customer count)${both}:`);
  console.log(formatFamilyTable(families));
  if (args.split === 'both') {
    console.log('\n… and by decomposition (--split on), same run:');
    console.log(formatFamilyTable(summarizeFamilies(splitResults)));
    results.push(...splitResults);
  }
  if (args.stats) {
    console.log(
      '\nLocal-search operators per family (tries: moves priced; improvements: moves applied; ms: local-search time split by sampled calls):',
    );
    console.log(formatOperatorTable(sumOperatorsPerFamily(results)));
  }
  const meta = {
    set: args.set,
    timeSeconds: args.timeFromVroom ? 'vroom' : args.timeSeconds,
    iterations: args.iterations,
    seed: args.seed,
    threads: args.threads,
    split: args.split,
    filters: args.filters,
    date: new Date().toISOString(),
    ...(vroom !== null && { vroom: { version: vroom.version, ...vroom.options } }),
  };
  const outDir = args.outDir ?? join(repoRoot(), 'results');
  let paths: string[];
  if (vroom === null) {
    paths = writeResultFiles(outDir, timestampStem(args.set), meta, results, families);
  } else {
    const versus = summarizeVersus(results);
    const timeLabel = args.timeFromVroom ? 'time-vroom' : `${args.timeSeconds}s`;
    const caption = versusCaption(args, vroom.version, vroom.options, entries.length);
    const markdown = formatVersusMarkdown(versus, caption);
    console.log(
      `\nrouteplan vs VROOM -x ${vroom.options.exploration} per family (mean gap to BKS over each solver's feasible, complete plans; ratio = ours / VROOM; wall times):`,
    );
    console.log(formatVersusTable(versus));
    if (args.markdown) console.log(`\n${markdown}`);
    const stem = timestampStem(`${args.set}-vs-vroom-x${vroom.options.exploration}-${timeLabel}`);
    paths = writeResultFiles(outDir, stem, meta, results, families, { versus, markdown });
  }
  console.log(`\nwrote ${paths.join(', ')}`);
  const oursOk = results.every((r) => r.error === null && r.feasible);
  const vroomOk = results.every((r) => r.vroom === undefined || (r.vroom.error === null && r.vroom.feasible));
  if (!vroomOk) console.error('bench: at least one VROOM plan is infeasible or a VROOM run failed (see ! VROOM lines)');
  return oursOk && vroomOk;
}

async function vroomOptions(args: BenchArgs): Promise<{ version: string; options: VroomRunOptions }> {
  const bin = args.vroomBin ?? defaultVroomBin();
  const version = await vroomVersion(bin);
  return {
    version,
    options: {
      bin,
      exploration: args.vroomExploration ?? 5,
      threads: args.threads,
      limitSec: args.timeFromVroom ? null : args.timeSeconds,
    },
  };
}

function versusCaption(args: BenchArgs, version: string, options: VroomRunOptions, instances: number): string {
  const filter = args.filters.length === 0 ? '' : ` (${args.filters.join(', ')})`;
  const time = args.timeFromVroom
    ? `routeplan given, per instance, the wall time VROOM -x ${options.exploration} took on it`
    : `both given ${args.timeSeconds} s (VROOM as \`-l ${args.timeSeconds}\`, stopping earlier when its -x ${options.exploration} search ends)`;
  return (
    `${args.set}${filter}, ${instances} instances: routeplan (seed ${args.seed}) vs ${version} \`-x ${options.exploration}\`, ` +
    `both ${args.threads === 1 ? 'single-threaded' : `on ${args.threads} threads`}, interleaved; ${time}. ` +
    'Gap: mean % above the DIMACS/CVRPLIB best-known value over feasible plans serving every customer, each plan re-measured and checked by the bench; times: mean wall seconds.'
  );
}

async function runLarge(args: BenchArgs): Promise<boolean> {
  if (args.split === 'both') {
    // Both ways, independent searches first, then decomposition.
    let ok = true;
    for (const split of [false, true]) {
      const result = await runLargeBench(args, split);
      console.log(`\n--split ${split ? 'on' : 'off'}:`);
      console.log(formatLargeResult(result));
      ok &&= result.feasible && result.probeFeasible;
    }
    return ok;
  }
  const result = await runLargeBench(args, args.split === null ? undefined : args.split === 'on');
  console.log(formatLargeResult(result));
  const paths = writeResultFiles(
    args.outDir ?? join(repoRoot(), 'results'),
    timestampStem('large'),
    { set: 'large', timeSeconds: args.timeSeconds, seed: args.seed, threads: args.threads, large: result },
    [],
    [],
  );
  console.log(`\nwrote ${paths[0]}`);
  return result.feasible && result.probeFeasible;
}

async function runAnytime(args: BenchArgs): Promise<boolean> {
  const rows = await runAnytimeBench(args);
  console.log(formatAnytimeRows(rows));
  const paths = writeResultFiles(
    args.outDir ?? join(repoRoot(), 'results'),
    timestampStem('anytime'),
    { set: 'anytime', seed: args.seed, threads: args.threads, anytime: rows },
    [],
    [],
  );
  console.log(`\nwrote ${paths[0]}`);
  return rows.every((row) => row.monotone && row.runs.every((run) => run.feasible));
}

async function main(): Promise<void> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message !== '') console.error(`bench: ${error.message}`);
    console.error(USAGE);
    process.exitCode = error.message === '' ? 0 : 2;
    return;
  }
  try {
    const ok =
      args.set === 'large'
        ? await runLarge(args)
        : args.set === 'anytime'
          ? await runAnytime(args)
          : await runInstanceSet(args as BenchArgs & { set: BenchmarkSet });
    if (!ok) {
      console.error('bench: at least one plan is infeasible, a solve crashed, or (anytime) priority fell as the limit grew');
      process.exitCode = 1;
    }
  } catch (error) {
    if (error instanceof VroomUnavailableError || error instanceof UsageError) {
      console.error(`bench: ${error.message}`);
      process.exitCode = error instanceof UsageError ? 2 : 1;
      return;
    }
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  }
}

await main();
