/**
 * The JSON API as the page calls it: the session cookie (never the key) carries the identity, and
 * every state-changing call sends the session's CSRF token, per decisions.md.
 */
import type { Action, DispatchView, HandPlanBody, PlanEvaluation, Project, ProjectSummary, ServiceError, Session } from './types.js';
import type { ConvertedRows, ImportDelimiter, ImportRole, ImportRow, InspectedTable } from '../input/import-types.js';

export interface ImportRequest {
  file: string;
  delimiter: ImportDelimiter;
  header: string[];
  columns: (string | null)[];
  rows: ImportRow[];
  /** Stops only: the project's drivers' names, which a `driver` column (a lock) must name. */
  driver_names?: string[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: ServiceError,
    options?: ErrorOptions,
  ) {
    super(error.message, options);
  }
}

export interface Call {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  csrf?: string;
  body?: unknown;
  /** A file sent as it is (an uploaded spreadsheet), instead of a JSON body. */
  file?: Blob;
  /** The project version the change was made on (edit-api.ts): a stale one is answered 412. */
  ifMatch?: number;
}

export async function call<T>(path: string, { method = 'GET', csrf, body, file, ifMatch }: Call = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (csrf !== undefined) headers['x-csrf-token'] = csrf;
  if (ifMatch !== undefined) headers['if-match'] = `"${ifMatch}"`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (file !== undefined) headers['content-type'] = 'application/octet-stream';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(file !== undefined ? { body: file } : {}),
    });
  } catch (cause) {
    throw new ApiError(
      0,
      { code: 'network_error', message: 'the service cannot be reached; check the connection and try again', details: [] },
      { cause },
    );
  }
  const payload = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) throw new ApiError(response.status, errorOf(payload, response.status));
  return payload as T;
}

function errorOf(payload: unknown, status: number): ServiceError {
  const error = (payload as { error?: Partial<ServiceError> } | null)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return { code: error.code, message: error.message, details: error.details ?? [] };
  }
  return { code: `http_${status}`, message: `the service answered HTTP ${status}`, details: [] };
}

/** The session, or null when the browser is not signed in. */
export async function loadSession(): Promise<Session | null> {
  try {
    return await call<Session>('/session');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export async function listProjects(): Promise<ProjectSummary[]> {
  return (await call<{ projects: ProjectSummary[] }>('/v1.0/projects')).projects;
}

export function getProject(id: string): Promise<Project> {
  return call<Project>(`/v1.0/project/${encodeURIComponent(id)}`);
}

export function startOptimization(session: Session, projectId: string): Promise<Action> {
  return call<Action>(`/v1.0/project/${encodeURIComponent(projectId)}/optimize`, { method: 'POST', csrf: session.csrfToken });
}

/** Plans the rest of a dispatched day from now (decisions.md "Editing a project and re-planning the day"). */
export function startReoptimization(session: Session, projectId: string): Promise<Action> {
  return call<Action>(`/v1.0/project/${encodeURIComponent(projectId)}/reoptimize`, { method: 'POST', csrf: session.csrfToken });
}

export function getAction(actionUuid: string): Promise<Action> {
  return call<Action>(`/v2/schedules/${encodeURIComponent(actionUuid)}`);
}

export function cancelAction(session: Session, actionUuid: string): Promise<Action> {
  return call<Action>(`/v2/schedules/${encodeURIComponent(actionUuid)}/cancel`, { method: 'POST', csrf: session.csrfToken });
}

/** Deletes the project with everything made from it (its plans, dispatch, proofs and customer e-mails). */
export async function deleteProject(session: Session, projectId: string): Promise<void> {
  await call<null>(`/v1.0/project/${encodeURIComponent(projectId)}`, { method: 'DELETE', csrf: session.csrfToken });
}

/** Freezes a finished optimization's plan as the day's routes (a re-dispatch replaces an earlier one). */
export function dispatchProject(session: Session, projectId: string, actionUuid: string, redispatch: boolean): Promise<DispatchView> {
  return call<DispatchView>(`/v1.0/project/${encodeURIComponent(projectId)}/dispatch`, {
    method: 'POST',
    csrf: session.csrfToken,
    body: { actionUuid, redispatch },
  });
}

/** Withdraws a driver's link (`revoke`) or gives them a new one (`link`). */
export function changeDriverLink(session: Session, projectId: string, driverId: string, change: 'revoke' | 'link'): Promise<DispatchView> {
  const path = `/v1.0/project/${encodeURIComponent(projectId)}/dispatch/drivers/${encodeURIComponent(driverId)}/${change}`;
  return call<DispatchView>(path, { method: 'POST', csrf: session.csrfToken });
}

/** An uploaded spreadsheet's header, rows and guessed columns (POST /v1.0/imports/{role}). */
export function inspectSpreadsheet(session: Session, role: ImportRole, file: File): Promise<InspectedTable> {
  return call<InspectedTable>(`/v1.0/imports/${role}?file=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    csrf: session.csrfToken,
    file,
  });
}

/** The rows read as the chosen columns: stops or drivers, and their problems by row and column. */
export function convertRows(session: Session, role: ImportRole, request: ImportRequest): Promise<ConvertedRows> {
  return call<ConvertedRows>(`/v1.0/imports/${role}/items`, { method: 'POST', csrf: session.csrfToken, body: request });
}

/** Creates a project (its addresses are geocoded by the service). */
export function createProject(session: Session, project: Record<string, unknown>): Promise<Project> {
  return call<Project>('/v1.0/project', { method: 'POST', csrf: session.csrfToken, body: project });
}

/** Re-times a plan arranged by hand and names every rule it breaks; keeps nothing. */
export function evaluatePlan(session: Session, projectId: string, body: HandPlanBody): Promise<PlanEvaluation> {
  return call<PlanEvaluation>(`/v1.0/project/${encodeURIComponent(projectId)}/plans/evaluate`, {
    method: 'POST',
    csrf: session.csrfToken,
    body,
  });
}

/** Keeps a plan arranged by hand as a new plan of the project (kind `edited`): its action. */
export function savePlan(session: Session, projectId: string, body: HandPlanBody): Promise<Action> {
  return call<Action>(`/v1.0/project/${encodeURIComponent(projectId)}/plans`, { method: 'POST', csrf: session.csrfToken, body });
}

/** Changes one stop of the project (a JSON merge patch: `null` removes a field): the project as it now is. */
export function patchStop(session: Session, projectId: string, stopId: string, patch: Record<string, unknown>): Promise<Project> {
  const path = `/v1.0/project/${encodeURIComponent(projectId)}/stops/${encodeURIComponent(stopId)}`;
  return call<Project>(path, { method: 'PATCH', csrf: session.csrfToken, body: patch });
}
