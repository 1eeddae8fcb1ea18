/** `--stats`: the local search's per-operator counters, summed per benchmark family. */
import type { OperatorStats } from '../../src/solver/types.js';
import type { InstanceResult } from './report.js';

export interface FamilyOperators {
  family: string;
  operators: OperatorStats[];
}

/** Counters summed by operator name per family (in order of first appearance), plus `overall` when there are several families. */
export function sumOperatorsPerFamily(results: InstanceResult[]): FamilyOperators[] {
  const families = [...new Set(results.map((r) => r.family))];
  const rows = families.map((family) => ({ family, operators: sumOperators(results.filter((r) => r.family === family)) }));
  if (families.length > 1) rows.push({ family: 'overall', operators: sumOperators(results) });
  return rows;
}

function sumOperators(results: InstanceResult[]): OperatorStats[] {
  const byName = new Map<string, OperatorStats>();
  for (const result of results) {
    for (const op of result.operators ?? []) {
      const sum = byName.get(op.name) ?? { name: op.name, tries: 0, improvements: 0, ms: 0 };
      sum.tries += op.tries;
      sum.improvements += op.improvements;
      sum.ms += op.ms;
      byName.set(op.name, sum);
    }
  }
  return [...byName.values()];
}

export function formatOperatorTable(rows: FamilyOperators[]): string {
  const lines = [
    [
      'family'.padEnd(10),
      'operator'.padEnd(12),
      'tries'.padStart(12),
      'improvements'.padStart(12),
      'hit %'.padStart(7),
      'ms'.padStart(9),
      'ns/try'.padStart(7),
    ].join(' '),
  ];
  for (const { family, operators } of rows) {
    if (operators.length === 0) lines.push(`${family.padEnd(10)} (no local search ran)`);
    for (const op of operators) {
      lines.push(
        [
          family.padEnd(10),
          op.name.padEnd(12),
          String(op.tries).padStart(12),
          String(op.improvements).padStart(12),
          (op.tries === 0 ? '-' : ((100 * op.improvements) / op.tries).toFixed(3)).padStart(7),
          op.ms.toFixed(0).padStart(9),
          (op.tries === 0 ? '-' : ((op.ms * 1e6) / op.tries).toFixed(0)).padStart(7),
        ].join(' '),
      );
    }
  }
  return lines.join('\n');
}
