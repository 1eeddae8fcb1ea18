/**
 * `npm run bench -- --set solomon|homberger-200|homberger-1000|cvrp-x|large --time <s> …`
 *
 * Solves each instance (one at a time; the solver may use its threads), builds the JSON plan,
 * checks it with the independent checker, compares with the best-known value and prints per
 * instance and per family. Results also go to results/<set>-<timestamp>.{json,csv}.
 * Exit 1 if any plan is infeasible or any solve crashes, 2 on a usage error.
 */
import { join } from 'node:path';
import { parseBenchArgs, USAGE, UsageError, type BenchArgs } from './args.js';
import { benchmarksRoot, readBks, repoRoot, type BenchmarkSet } from './benchmark-data.js';
import { benchInstance, selectInstances } from './instance-bench.js';
import { formatLargeResult, runLargeBench } from './large-bench.js';
import { formatOperatorTable, sumOperatorsPerFamily } from './operator-report.js';
import {
  formatFamilyTable,
  formatInstanceHeader,
  formatInstanceRow,
  summarizeFamilies,
  timestampStem,
  writeResultFiles,
  type InstanceResult,
} from './report.js';

async function runInstanceSet(args: BenchArgs & { set: BenchmarkSet }): Promise<boolean> {
  const entries = selectInstances(args.set, args.filters, args.limit);
  if (entries.length === 0) throw new UsageError(`no ${args.set} instance matches --filter ${args.filters.join(',')}`);
  const bks = readBks(args.set);
  const costDigits = args.set === 'cvrp-x' ? 0 : 1;
  const iterations = args.iterations === null ? '' : ` or ${args.iterations} iterations`;
  console.log(
    `${args.set}: ${entries.length} instances, ${args.timeSeconds} s${iterations} each, seed ${args.seed}, threads ${args.threads} (data: ${benchmarksRoot()})`,
  );
  console.log(formatInstanceHeader());
  const results: InstanceResult[] = [];
  for (const entry of entries) {
    const result = await benchInstance(
      args.set,
      entry,
      {
        timeLimitMs: args.timeSeconds * 1000,
        seed: args.seed,
        threads: args.threads,
        maxIterations: args.iterations,
        operatorStats: args.stats,
      },
      bks,
    );
    results.push(result);
    console.log(formatInstanceRow(result, costDigits));
    for (const problem of result.problems.slice(0, 5)) console.log(`    ! ${problem}`);
    if (result.problems.length > 5) console.log(`    ! … ${result.problems.length - 5} more`);
    if (result.missedInserts.length > 0)
      console.log(`    ~ ${result.missedInserts.length} unserved would still fit, e.g. ${result.missedInserts[0]}`);
  }
  const families = summarizeFamilies(results);
  console.log('\nMean gap to BKS per family (only feasible plans that serve every customer count):');
  console.log(formatFamilyTable(families));
  if (args.stats) {
    console.log(
      '\nLocal-search operators per family (tries: moves priced; improvements: moves applied; ms: local-search time split by sampled calls):',
    );
    console.log(formatOperatorTable(sumOperatorsPerFamily(results)));
  }
  const meta = {
    set: args.set,
    timeSeconds: args.timeSeconds,
    iterations: args.iterations,
    seed: args.seed,
    threads: args.threads,
    filters: args.filters,
    date: new Date().toISOString(),
  };
  const paths = writeResultFiles(args.outDir ?? join(repoRoot(), 'results'), timestampStem(args.set), meta, results, families);
  console.log(`\nwrote ${paths.join(', ')}`);
  return results.every((r) => r.error === null && r.feasible);
}

async function runLarge(args: BenchArgs): Promise<boolean> {
  const result = await runLargeBench(args);
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
    const ok = args.set === 'large' ? await runLarge(args) : await runInstanceSet(args as BenchArgs & { set: BenchmarkSet });
    if (!ok) {
      console.error('bench: at least one plan is infeasible or a solve crashed');
      process.exitCode = 1;
    }
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}

await main();
