/**
 * decisions.md: with `allowCapacityOverload`, each route and the summary report the overload per
 * dimension (issue 10: the plan used to say nothing of it). Solved for real, checked independently.
 */
import { describe, expect, it } from 'vitest';
import { renderPlanTables } from '../../src/output/table.js';
import { checkedPlanOf } from '../support/checked-plan.js';
import { oneoff, order, route } from '../input/helpers.js';

describe('capacity overload in the plan', () => {
  it('with allowCapacityOverload, the route and the summary report the load above capacity', async () => {
    const plan = await checkedPlanOf(
      oneoff({
        routesData: [route('Van 1', { capacity: 10 })],
        ordersData: ['A', 'B', 'C'].map((name) => order(name, { load: 6 })),
        options: { allowCapacityOverload: true },
      }),
    );
    expect(plan.unserved).toEqual([]);
    expect(plan.routes[0]!.overload).toBe(8);
    expect(plan.summary.overload).toBe(8);
    const text = renderPlanTables(plan, { color: false });
    expect(text).toMatch(/Route 1: Van 1[^\n]*\n[^\n]*load 18 · overload 8/);
    expect(text).toMatch(/overtime [^\n]* · overload 8/);
  });

  it('per named dimension: only the dimension over capacity has an overload', async () => {
    const plan = await checkedPlanOf(
      oneoff({
        routesData: [route('Van 1', { capacity: { weight: 100, volume: 2 } })],
        ordersData: ['A', 'B'].map((name) => order(name, { load: { weight: 10, volume: 1.5 } })),
        options: { allowCapacityOverload: true },
      }),
    );
    expect(plan.routes[0]!.overload).toEqual({ volume: 1, weight: 0 });
    expect(plan.summary.overload).toEqual({ volume: 1, weight: 0 });
  });

  it('within capacity the overload is 0, and the table says nothing of it', async () => {
    const plan = await checkedPlanOf(
      oneoff({
        routesData: [route('Van 1', { capacity: 10 })],
        ordersData: [order('A', { load: 6 })],
        options: { allowCapacityOverload: true },
      }),
    );
    expect([plan.routes[0]!.overload, plan.summary.overload]).toEqual([0, 0]);
    expect(renderPlanTables(plan, { color: false }).match(/overload/g)).toHaveLength(1); // the summary line only
  });

  it('without allowCapacityOverload the plan has no overload fields (the contract is unchanged)', async () => {
    const plan = await checkedPlanOf(oneoff({ routesData: [route('Van 1', { capacity: 10 })], ordersData: [order('A', { load: 6 })] }));
    expect('overload' in plan.routes[0]!).toBe(false);
    expect('overload' in plan.summary).toBe(false);
  });
});
