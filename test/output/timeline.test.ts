import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/output/plan.js';
import { timelineBars, timelineSpan } from '../../src/output/timeline.js';
import { sampleProblem, sampleResult } from './sample.js';

const plan = buildPlan(sampleProblem(), sampleResult());
const h = 3600;

describe('timelineBars', () => {
  it('draws driving up to each arrival, waiting, service, the drive home, and breaks last (on top)', () => {
    expect(timelineBars(plan.routes[0]!)).toEqual([
      { kind: 'driving', from_s: 8 * h, to_s: 8 * h + 300, stop: 'Café Mercier' },
      { kind: 'service', from_s: 8 * h + 300, to_s: 8 * h + 900, stop: 'Café Mercier' },
      { kind: 'driving', from_s: 12 * h + 1800, to_s: 12 * h + 2100, stop: 'Boulangerie <Nord>' },
      { kind: 'service', from_s: 12 * h + 2100, to_s: 12 * h + 2700, stop: 'Boulangerie <Nord>' },
      { kind: 'driving', from_s: 13 * h - 420, to_s: 13 * h, stop: '' },
      { kind: 'break', from_s: 12 * h, to_s: 12 * h + 1800, stop: '' },
    ]);
  });

  it('gives a stop without ETAs no bars, and an open route no drive home', () => {
    expect(timelineBars(plan.routes[1]!)).toEqual([]);
  });
});

describe('timelineSpan', () => {
  it('runs from the earliest start to the latest end', () => {
    expect(timelineSpan(plan)).toEqual({ from_s: 8 * h, to_s: 13 * h });
    expect(timelineSpan({ ...plan, routes: [] })).toBeNull();
  });
});
