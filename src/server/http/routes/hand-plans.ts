/**
 * Plans made by hand (services/hand-plans.ts): `POST /v1.0/project/{id}/plans/evaluate` re-times
 * the routes as given and answers the plan with every rule it breaks, changing nothing;
 * `POST /v1.0/project/{id}/plans` keeps it as a new plan of the project (kind `edited`) and
 * answers its action (201, Location the action). A bad body is 400 with each problem's path;
 * `If-Match` naming another version of the project than the current one is 412, as for the edits.
 */
import type { AppContext } from '../context.js';
import { readJsonBody, sendJson } from '../replies.js';
import type { ApiCall } from './api-call.js';
import { projectNotFound } from './project-answer.js';
import { etagOf, expectedVersionOf, versionMismatch } from './project-edits.js';
import { evaluateHandPlan, keepHandPlan, readHandPlan, type ProjectAtVersion } from '../../services/hand-plans.js';

export async function evaluatePlanRoute(ctx: AppContext, call: ApiCall): Promise<void> {
  const body = await readJsonBody(call.req, ctx.bodyLimitBytes);
  const project = await currentProject(ctx, call);
  const { plan, violations } = await evaluateHandPlan(project, readHandPlan(body, project.record), ctx.loadOptions);
  sendJson(call.reply, 200, { project_version: project.record.version ?? 1, plan, violations }, etagOf(project.record));
}

export async function keepPlanRoute(ctx: AppContext, call: ApiCall): Promise<void> {
  const body = await readJsonBody(call.req, ctx.bodyLimitBytes);
  const project = await currentProject(ctx, call);
  const kept = await keepHandPlan(ctx.actions, call.owner, project, readHandPlan(body, project.record), ctx.loadOptions);
  call.notes.actionId = kept.actionUuid;
  sendJson(call.reply, 201, kept, { location: `/v2/schedules/${kept.actionUuid}`, ...etagOf(project.record) });
}

/** The caller's project at its current version; 404 when it has none, 412 when If-Match names another version. */
async function currentProject(ctx: AppContext, call: ApiCall): Promise<ProjectAtVersion> {
  const found = await ctx.projects.find(call.owner, call.id);
  if (!found) throw projectNotFound(call.id);
  call.notes.projectId = found.record.id;
  const expected = expectedVersionOf(call);
  const version = found.record.version ?? 1;
  if (expected !== undefined && expected !== version) throw versionMismatch(version, expected);
  return found;
}
