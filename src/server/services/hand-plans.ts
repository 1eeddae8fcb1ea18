/**
 * Plans made by hand (decisions.md, "Editing a project and re-planning the day"): a project's
 * routes as a user arranged them, given as each driver's ordered stop ids, re-timed with the
 * solver's exact route evaluator (output/hand-plan.ts) with every rule they now break, and, when
 * kept, recorded as a finished action of the project of kind `edited`, so that history, exports
 * and dispatch read it as any plan.
 *
 * The request: `{ routes: { <driver id>: [<stop id>, …], … }, unserved?: [<stop id>, …], base?:
 * <actionUuid> }`. A driver not named has no route; a stop on no route is unserved. `base` names
 * the plan the user started from (a finished plan of the project), kept as `based_on`.
 */
import { InputError, type ErrorDetail } from '../../errors.js';
import { isPlainObject, resolveProblemDocument, type LoadOptions } from '../../input/index.js';
import { timeHandPlan, type HandRoute, type TimedHandPlan } from '../../output/hand-plan.js';
import type { ActionRecord } from '../api-types.js';
import type { ActionService } from './actions/service.js';
import type { ProjectRecord } from '../store/ports.js';

/** What a request asks for, in the problem's numbers (vehicle and stop indexes). */
export interface HandPlanRequest {
  routes: HandRoute[];
  base?: string;
}

/** A project as the evaluation needs it: its record (ids, in the document's order) and its document. */
export interface ProjectAtVersion {
  record: ProjectRecord & { version?: number };
  document: Record<string, unknown>;
}

/**
 * Reads the request against the project's stops and drivers; throws an InputError (400) naming
 * every problem's path: an unknown driver or stop, a stop given twice, a stop without a location.
 */
export function readHandPlan(body: unknown, record: ProjectRecord): HandPlanRequest {
  if (!isPlainObject(body)) throw new InputError('the request body must be a JSON object', [{ path: '', message: 'expected an object' }]);
  const problems: ErrorDetail[] = [];
  const stopIndex = new Map(record.stops.map((stop, index) => [stop.id, index]));
  const driverIndex = new Map(record.drivers.map((driver, index) => [driver.id, index]));
  const placed = new Map<string, string>();
  const stopAt = (id: unknown, path: string): number | null => {
    const index = typeof id === 'string' ? stopIndex.get(id) : undefined;
    if (index === undefined) problems.push({ path, message: `${JSON.stringify(id)} is no stop of the project` });
    else if (placed.has(id as string))
      problems.push({ path, message: `stop ${String(id)} is given twice (also at ${placed.get(id as string)})` });
    else {
      placed.set(id as string, path);
      return index;
    }
    return null;
  };
  const routes: HandRoute[] = [];
  const given = body.routes;
  if (!isPlainObject(given))
    problems.push({ path: 'routes', message: 'expected an object: driver id → the ids of the stops it serves, in order' });
  else {
    for (const [driverId, stopIds] of Object.entries(given)) {
      const vehicle = driverIndex.get(driverId);
      if (vehicle === undefined) problems.push({ path: `routes.${driverId}`, message: `${driverId} is no driver of the project` });
      if (!Array.isArray(stopIds)) {
        problems.push({ path: `routes.${driverId}`, message: 'expected an array of stop ids' });
        continue;
      }
      const stops = stopIds.map((id, i) => stopAt(id, `routes.${driverId}[${i}]`)).filter((s): s is number => s !== null);
      if (vehicle !== undefined) routes.push({ vehicle, stops });
    }
  }
  readUnserved(body.unserved, stopAt, problems);
  const base = body.base;
  if (base !== undefined && typeof base !== 'string')
    problems.push({ path: 'base', message: 'expected the actionUuid of a plan of the project' });
  if (problems.length > 0)
    throw new InputError(`the plan is not valid: ${problems.length} ${problems.length === 1 ? 'error' : 'errors'}`, problems);
  return { routes, ...(typeof base === 'string' ? { base } : {}) };
}

function readUnserved(unserved: unknown, stopAt: (id: unknown, path: string) => number | null, problems: ErrorDetail[]): void {
  if (unserved === undefined) return;
  if (!Array.isArray(unserved)) problems.push({ path: 'unserved', message: 'expected an array of stop ids' });
  else unserved.forEach((id, i) => stopAt(id, `unserved[${i}]`));
}

/** The project's routes as `request` gives them, timed, with every rule they break. */
export async function evaluateHandPlan(project: ProjectAtVersion, request: HandPlanRequest, options: LoadOptions): Promise<TimedHandPlan> {
  const { problem } = await resolveProblemDocument(project.document, {
    ...options,
    expect: 'project',
    // A stop whose address found nothing may stay unserved; on a route it is refused below.
    ...(options.geocoder !== undefined ? { allowUnresolved: true } : {}),
  });
  const unplaced: ErrorDetail[] = [];
  for (const route of request.routes) {
    route.stops.forEach((s, i) => {
      if (problem.stops[s]!.location >= 0) return;
      const driverId = project.record.drivers[route.vehicle]!.id;
      unplaced.push({
        path: `routes.${driverId}[${i}]`,
        message: `stop ${project.record.stops[s]!.id} has no location yet; place it before routing it`,
      });
    });
  }
  if (unplaced.length > 0) throw new InputError('a stop on a route has no location', unplaced);
  return timeHandPlan(problem, request.routes);
}

/**
 * Evaluates the plan and keeps it as a finished action of the project of kind `edited` (with
 * its changes against the project's plan before it), made for the project's version read.
 */
export async function keepHandPlan(
  actions: ActionService,
  owner: string,
  project: ProjectAtVersion,
  request: HandPlanRequest,
  options: LoadOptions,
): Promise<ActionRecord & Pick<TimedHandPlan, 'violations'>> {
  if (request.base !== undefined) await requirePlanOf(actions, owner, project.record.id, request.base);
  const { plan, violations } = await evaluateHandPlan(project, request, options);
  const record = await actions.keep(
    {
      owner,
      kind: 'project',
      document: project.document,
      actionName: 'optimize',
      warnings: [],
      projectId: project.record.id,
      ...(project.record.version !== undefined ? { projectVersion: project.record.version } : {}),
      planKind: 'edited',
      ...(request.base !== undefined ? { basedOn: request.base } : {}),
    },
    plan,
  );
  return { ...record, violations };
}

/** `base` must name a finished plan of this project. */
async function requirePlanOf(actions: ActionService, owner: string, projectId: string, base: string): Promise<void> {
  const action = await actions.get(owner, base);
  if (action?.project_id === projectId && action.status === 'finished') return;
  throw new InputError('base is no finished plan of this project', [
    { path: 'base', message: `${base} is no finished plan of project ${projectId}` },
  ]);
}
