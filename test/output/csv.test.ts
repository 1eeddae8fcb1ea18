import { describe, expect, it } from 'vitest';
import { ROUTE_CSV_HEADER, csvField, routeCsv } from '../../src/output/csv.js';
import { buildPlan } from '../../src/output/plan.js';
import { sampleProblem, sampleResult } from './sample.js';

const plan = buildPlan(sampleProblem(), sampleResult());
const addresses = ['1 rue du Port', '2 quai "Nord", Lyon'];
const addressOf = (index: number): string => addresses[index] ?? '';

/** A minimal RFC 4180 reader, so the test checks what a spreadsheet would read back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      field += char;
    }
  }
  return rows;
}

describe('routeCsv', () => {
  const rows = parseCsv(routeCsv(plan.routes[0]!, addressOf));

  it('starts with the header a dispatcher expects and ends every line with CRLF', () => {
    expect(rows[0]).toEqual(ROUTE_CSV_HEADER);
    expect(routeCsv(plan.routes[0]!, addressOf).endsWith('\r\n')).toBe(true);
  });

  it('lists the stops in order with times, address, load, lateness, phone and notes; breaks in between', () => {
    expect(rows.slice(1)).toEqual([
      ['1', 'Café Mercier', '1 rue du Port', '08:05', '08:05', '08:15', '1', '', "'+33600000000", 'ring twice'],
      ['', 'break', '', '', '12:00', '12:30', '', '', '', ''],
      ['2', 'Boulangerie <Nord>', '2 quai "Nord", Lyon', '12:35', '12:35', '12:45', '2', '2 min', '', ''],
    ]);
  });

  it('shows a dash for the times of a stop without ETAs', () => {
    const bike = parseCsv(routeCsv(plan.routes[1]!, addressOf));
    expect(bike[1]!.slice(0, 6)).toEqual(['1', 'Kiosk', '', '—', '—', '—']);
  });
});

describe('csvField', () => {
  it('quotes separators, quotes and line breaks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('keeps a spreadsheet from running a field as a formula; a phone number reads as text, + and all', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('+33 6 12 34 56 78')).toBe("'+33 6 12 34 56 78");
    expect(csvField('06 12 34 56 78')).toBe('06 12 34 56 78');
  });
});
