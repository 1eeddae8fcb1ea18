/**
 * Changing a project over the API (decisions.md, "Editing a project and re-planning the day"):
 * PATCH the project (name, date, settings), POST a stop or driver, PATCH or DELETE one by its id.
 * Each change is validated as a new project is (400 with each problem's path, nothing changed), and
 * answers the project record with its new `version`, also as the `ETag`; `If-Match` with another
 * version is 412 and changes nothing.
 */
import type { AppContext } from '../context.js';
import { HttpError, readJsonBody, sendJson } from '../replies.js';
import type { ApiCall } from './api-call.js';
import { projectAnswer, projectNotFound } from './project-answer.js';
import { addItem, patchItem, patchProject, removeItem, type ItemList, type ProjectContents } from '../../services/project-edits.js';
import type { ProjectView } from '../../services/projects.js';

/** The ETag of a project's version: a strong tag, its number quoted. */
export function etagOf(project: Pick<ProjectView, 'version'>): Record<string, string> {
  return { etag: `"${project.version ?? 1}"` };
}

export async function changeProject(ctx: AppContext, call: ApiCall): Promise<void> {
  const body = await readJsonBody(call.req, ctx.bodyLimitBytes);
  await applyChange(ctx, call, (current) => patchProject(current, body));
}

export function addItemRoute(list: ItemList): (ctx: AppContext, call: ApiCall) => Promise<void> {
  return async (ctx, call) => {
    const body = await readJsonBody(call.req, ctx.bodyLimitBytes);
    let added = '';
    await applyChange(
      ctx,
      call,
      (current) => {
        const { contents, id } = addItem(current, list, body);
        added = id;
        return contents;
      },
      201,
      () => ({ location: `/v1.0/project/${call.id}/${list}/${added}` }),
    );
  };
}

export function changeItemRoute(list: ItemList): (ctx: AppContext, call: ApiCall) => Promise<void> {
  return async (ctx, call) => {
    const body = await readJsonBody(call.req, ctx.bodyLimitBytes);
    const itemId = call.params.itemId ?? '';
    await applyChange(ctx, call, (current) => patchItem(current, list, itemId, body) ?? itemNotFound(list, itemId));
  };
}

export function removeItemRoute(list: ItemList): (ctx: AppContext, call: ApiCall) => Promise<void> {
  return async (ctx, call) => {
    const itemId = call.params.itemId ?? '';
    await applyChange(ctx, call, (current) => removeItem(current, list, itemId) ?? itemNotFound(list, itemId));
  };
}

/**
 * Makes the change through the project service (one version at a time), starts geocoding the new
 * document's addresses when it has any without coordinates, and answers the changed project.
 */
async function applyChange(
  ctx: AppContext,
  call: ApiCall,
  edit: (current: ProjectContents) => ProjectContents,
  status = 200,
  headersOf: () => Record<string, string> = () => ({}),
): Promise<void> {
  call.notes.projectId = call.id;
  const expectedVersion = expectedVersionOf(call);
  const result = await ctx.projects.change(call.owner, call.id, {
    ...(expectedVersion !== undefined ? { expectedVersion } : {}),
    edit,
    accept: (document) => ({ warnings: ctx.validate('project', document, ctx.loadOptions), geocode: ctx.geocoding.needed(document) }),
  });
  if (result.outcome === 'missing') throw projectNotFound(call.id);
  if (result.outcome === 'stale') throw versionMismatch(result.version, expectedVersion);
  const { record } = result;
  if (result.geocode) ctx.geocoding.start(record.id, result.document, record.version);
  sendJson(call.reply, status, await projectAnswer(ctx, record), { ...etagOf(record), ...headersOf() });
}

/**
 * The version `If-Match` names, or undefined without one (or with `*`): then the change applies
 * to the current version. A tag that is no version of ours can never match: 0.
 */
export function expectedVersionOf(call: ApiCall): number | undefined {
  const header = call.req.headers['if-match'];
  if (header === undefined) return undefined;
  const tag = header.split(',')[0]!.trim();
  if (tag === '*') return undefined;
  const version = /^(?:W\/)?"?([1-9][0-9]{0,15})"?$/.exec(tag)?.[1];
  return version === undefined ? 0 : Number(version);
}

export function versionMismatch(current: number, expected: number | undefined): HttpError {
  // 0 stands for an If-Match naming no version at all (expectedVersionOf).
  const seen = expected === undefined ? 'the one read' : expected === 0 ? 'the one If-Match names' : `version ${expected}`;
  const message = `the project changed meanwhile: it is at version ${current}, not ${seen}; read it again and make the change on it`;
  return new HttpError(412, 'version_mismatch', message, [{ path: 'If-Match', message: `expected "${current}"` }], {
    etag: `"${current}"`,
  });
}

function itemNotFound(list: ItemList, itemId: string): never {
  const kind = list === 'stops' ? 'stop' : 'driver';
  throw new HttpError(404, `${kind}_not_found`, `the project has no ${kind} ${itemId}`);
}
