/**
 * Issue 27 (8): the driver CSV export leaves no cell a spreadsheet would evaluate. Every text cell
 * starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading apostrophe (OWASP's
 * rule); numbers of the numeric columns (order, load after) stay numbers, negative ones included.
 */
import { describe, expect, it } from 'vitest';
import { routeCsv } from '../../src/output/csv.js';
import { buildPlan } from '../../src/output/plan.js';
import { stopRecord } from '../support/problem-builder.js';
import { sampleProblem, sampleResult } from '../output/sample.js';

/** What customers may type into a stop's name, phone or notes, each a formula somewhere. */
const PAYLOADS = [
  '=1+1',
  '+HYPERLINK("http://evil.example","x")',
  "-1+1+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|'/C calc'!A0",
  '\t=1+1',
  '\r=1+1',
];

function hostileProblem(notes: string, name = 'Café Mercier', phone = '+33600000000'): ReturnType<typeof sampleProblem> {
  const problem = sampleProblem();
  const first = problem.stops[0]!;
  const stops = [
    stopRecord({ ...first, name, passthrough: { ...first.passthrough, notes, phone_number: phone } }),
    ...problem.stops.slice(1),
  ];
  return sampleProblem({ stops });
}

/** A minimal RFC 4180 reader: what a spreadsheet receives, cell by cell. */
function cells(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && char === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  return rows;
}

/** A cell Excel, LibreOffice or Google Sheets would run as a formula. */
const EVALUATED = /^[=+\-@\t\r]/;

describe('CSV export neutralises formulas (issue 27, 8)', () => {
  it.each(PAYLOADS)('a note, a stop name and a phone number %j are written as text, never as a formula', (payload) => {
    const plan = buildPlan(hostileProblem(payload, payload, payload), sampleResult());
    const rows = cells(routeCsv(plan.routes[0]!, () => payload));
    const stopRow = rows[1]!;
    for (const column of [1, 2, 8, 9]) {
      expect(stopRow[column]).toBe(`'${payload}`);
      expect(stopRow[column]).not.toMatch(EVALUATED);
    }
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(EVALUATED);
  });

  it('a phone number starting with + stays readable: one apostrophe in front, the number untouched', () => {
    const plan = buildPlan(hostileProblem('ring twice', 'Café Mercier', '+33 6 12 34 56 78'), sampleResult());
    const row = cells(routeCsv(plan.routes[0]!, () => ''))[1]!;
    expect(row[8]).toBe("'+33 6 12 34 56 78");
    expect(row[9]).toBe('ring twice');
  });

  it('a negative load in the numeric column stays a number a spreadsheet can sum, not text', () => {
    const result = sampleResult();
    result.routes[0]!.visits[0] = {
      ...(result.routes[0]!.visits[0] as Extract<(typeof result.routes)[0]['visits'][0], { kind: 'stop' }>),
      loadAfter: Float64Array.of(-3),
    };
    const plan = buildPlan(sampleProblem(), result);
    const row = cells(routeCsv(plan.routes[0]!, () => ''))[1]!;
    expect(row[0]).toBe('1');
    expect(row[6]).toBe('-3');
  });

  it('a numeric column holding text (a load of named dimensions, names chosen by the user) is neutralised like text', () => {
    const plan = buildPlan(sampleProblem(), sampleResult());
    const route = plan.routes[0]!;
    const visit = route.visits.find((entry) => entry.kind === 'stop')!;
    const withNamedLoad = { ...route, visits: [{ ...visit, load_after: { '-1+1+cmd': 2 } }] } as typeof route;
    const row = cells(routeCsv(withNamedLoad, () => ''))[1]!;
    expect(row[6]).toBe("'-1+1+cmd 2");
  });
});
