/**
 * The fix hints of an unserved stop as the page shows them (decisions.md "Unserved reasons"): each
 * single change the solver checked would let the stop be served in this plan, smallest first.
 */
import type { PlanUnserved } from '../output/plan-types.js';
import { h, hiddenText, type Child } from './dom.js';

/** The hints one a line, or a dash that says in words that no single change would do. */
export function hintList(entry: PlanUnserved): Child {
  const hints = entry.hints ?? [];
  if (hints.length === 0)
    return h('span', { class: 'no-hint' }, h('span', { 'aria-hidden': 'true' }, '—'), hiddenText('no single change would serve it'));
  return h('ul', { class: 'hints' }, ...hints.map((hint) => h('li', { 'data-kind': hint.kind }, hint.text)));
}
