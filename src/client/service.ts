/** The service's operations as the CLI uses them: submit one-off problems and projects, optimize projects, poll actions. */
import { randomUUID } from 'node:crypto';
import { RoutingError, type ErrorBody } from '../errors.js';
import type { Plan } from '../output/plan-types.js';
import { backoffDelayMs, type ServiceClient } from './http.js';

export interface ActionAck {
  actionUuid: string;
  actionName: string;
  status: string;
}

export interface RemoteAction extends ActionAck {
  solution?: Plan;
  error?: ErrorBody['error'];
  [field: string]: unknown;
}

export interface RemoteProject {
  id: string;
  name: string;
  date: string;
  url: string;
  [field: string]: unknown;
}

/** What a submission created, and whether the service had already created it for this idempotency key. */
export interface Submitted<T> {
  created: T;
  replayed: boolean;
}

/** A fresh key for one submission; every retry of that submission sends the same one. */
export function newIdempotencyKey(): string {
  return randomUUID();
}

export async function submitSchedule(client: ServiceClient, document: unknown, idempotencyKey: string): Promise<Submitted<ActionAck>> {
  const submitted = await postWithIdempotencyKey<ActionAck>(client, '/schedules', document, idempotencyKey);
  const ack = submitted.created;
  if (typeof ack?.actionUuid !== 'string' || ack.actionUuid === '') {
    throw new RoutingError('the service accepted the problem but returned no actionUuid', 'remote_bad_response');
  }
  return submitted;
}

export async function submitProject(client: ServiceClient, document: unknown, idempotencyKey: string): Promise<Submitted<RemoteProject>> {
  const submitted = await postWithIdempotencyKey<RemoteProject>(client, '/v1.0/project', document, idempotencyKey);
  if (typeof submitted.created?.id !== 'string') {
    throw new RoutingError('the service created the project but returned no id', 'remote_bad_response');
  }
  return submitted;
}

/** What POST /v1.0/project/{id}/optimize answers: the action, and the project it optimizes. */
export interface OptimizeAck extends ActionAck {
  project_id: string;
}

/** Starts an optimization of the project `projectId` (as its page's Optimize control does). */
export async function optimizeProject(client: ServiceClient, projectId: string, idempotencyKey: string): Promise<Submitted<OptimizeAck>> {
  const path = `/v1.0/project/${encodeURIComponent(projectId)}/optimize`;
  const submitted = await postWithIdempotencyKey<OptimizeAck>(client, path, undefined, idempotencyKey);
  if (typeof submitted.created?.actionUuid !== 'string' || submitted.created.actionUuid === '') {
    throw new RoutingError('the service accepted the optimization but returned no actionUuid', 'remote_bad_response');
  }
  return submitted;
}

/**
 * With the key, a repeat can only get the first answer back, never make a second action or project,
 * so the POST is retried after a lost answer (a reset, a timeout, a 502) just like a GET.
 */
async function postWithIdempotencyKey<T>(
  client: ServiceClient,
  path: string,
  document: unknown,
  idempotencyKey: string,
): Promise<Submitted<T>> {
  const answer = await client.exchange<T>({ method: 'POST', path, body: document, idempotent: true, idempotencyKey });
  return { created: answer.body, replayed: answer.headers.get('idempotent-replayed') === 'true' };
}

export function getAction(client: ServiceClient, actionUuid: string, deadline?: number): Promise<RemoteAction> {
  return client.request<RemoteAction>({
    method: 'GET',
    path: `/v2/schedules/${encodeURIComponent(actionUuid)}`,
    idempotent: true,
    ...(deadline !== undefined ? { deadline } : {}),
  });
}

export function isFinalStatus(status: unknown): status is 'finished' | 'failed' {
  return status === 'finished' || status === 'failed';
}

export interface WaitOptions {
  /** Overall bound in ms. */
  timeoutMs: number;
  /** Called with each status seen (for a spinner or a note). */
  onStatus?: (status: string) => void;
}

const POLL_FIRST_MS = 250;
const POLL_CAP_MS = 5_000;

/**
 * Polls until `finished` or `failed`; any other status (including ones this client does not know)
 * means still running. The interval grows exponentially with jitter. Throws RoutingError on timeout.
 */
export async function waitForAction(client: ServiceClient, actionUuid: string, options: WaitOptions): Promise<RemoteAction> {
  const deadline = client.now() + options.timeoutMs;
  for (let round = 0; ; round += 1) {
    const action = await getAction(client, actionUuid, deadline);
    options.onStatus?.(String(action.status));
    if (isFinalStatus(action.status)) return action;
    const delay = backoffDelayMs(round, client.random, POLL_FIRST_MS, POLL_CAP_MS);
    const remaining = deadline - client.now();
    if (remaining <= 0) throw stillRunning(actionUuid, action.status, options.timeoutMs);
    await client.sleep(Math.min(delay, remaining));
  }
}

function stillRunning(actionUuid: string, status: unknown, timeoutMs: number): RoutingError {
  return new RoutingError(
    `action ${actionUuid} is still ${String(status)} after ${Math.round(timeoutMs / 1000)} s; check again with "routeplan poll ${actionUuid}"`,
    'poll_timeout',
  );
}

/** The plan of a finished action; throws RoutingError (exit 3) for a failed one. */
export function planOf(action: RemoteAction): Plan {
  if (action.status === 'failed') {
    const error = action.error;
    throw new RoutingError(
      `action ${action.actionUuid} failed: ${error?.message ?? 'no reason given'}`,
      'action_failed',
      error?.details ?? [],
    );
  }
  if (!action.solution || typeof action.solution !== 'object') {
    throw new RoutingError(`action ${action.actionUuid} finished without a solution`, 'remote_bad_response');
  }
  return action.solution;
}
