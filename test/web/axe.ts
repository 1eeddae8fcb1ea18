/** axe-core's WCAG 2.1 A/AA rules on a page as it is now, in real Chromium: one line per violation (rule, element, why). */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../server/built.js';

const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');

interface Violation {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary: string }[];
}

declare const axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Violation[] }> };
declare const document: unknown;

export async function axeViolations(checked: Page): Promise<string[]> {
  await checked.addScriptTag({ path: AXE });
  const found = await checked.evaluate(async () => {
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary })),
    }));
  });
  return found.flatMap((v) => v.nodes.map((node) => `${v.id} (${v.help}): ${node.target.join(' ')} — ${node.summary}`));
}
