/**
 * A project's plans in the order they were recorded: each finished action of the project (an
 * optimization, an edited plan). A plan being recorded gets its `changes` against the plan the
 * project had before it (output/plan-changes.ts), once, so that what it says never moves.
 */
import { planChanges } from '../../output/plan-changes.js';
import type { Plan } from '../../output/plan-types.js';
import type { ActionStore } from '../store/ports.js';

type PlanReader = Pick<ActionStore, 'of' | 'load'>;

/** `plan` with its changes against the project's latest plan before it; as it is for the project's first plan. */
export async function withChanges(store: PlanReader, projectId: string, actionUuid: string, plan: Plan): Promise<Plan> {
  const previous = await latestPlanOf(store, projectId, actionUuid);
  if (!previous) return plan;
  return { ...plan, changes: planChanges(previous.actionUuid, previous.plan, plan) };
}

/** The newest finished plan of the project other than `except`, or null when it has none. */
export async function latestPlanOf(
  store: PlanReader,
  projectId: string,
  except?: string,
): Promise<{ actionUuid: string; plan: Plan } | null> {
  for (const summary of await store.of(projectId)) {
    if (summary.status !== 'finished' || summary.actionUuid === except) continue;
    const stored = await store.load(summary.actionUuid);
    const plan = stored?.record.solution;
    if (plan) return { actionUuid: summary.actionUuid, plan };
  }
  return null;
}
