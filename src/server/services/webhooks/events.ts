/**
 * The webhook events (decisions.md, "The live day"): what each says, built from what the action
 * store and the dispatch tell. A body is `{id, type, created_at, data}`; `data` carries ids, names
 * of projects, times and statuses, never a key, a customer's name, address, e-mail or a driver's
 * own words (the receiver asks the API for more, with its key).
 */
import { createHash } from 'node:crypto';
import type { StoredAction } from '../../store/ports.js';
import type { DispatchedEvent, DispatchedProject, EtaChangedEvent, NoticeStamp, StopReportedEvent } from '../dispatch/events.js';
import { formatClock } from '../../../model/time.js';

export const WEBHOOK_EVENT_TYPES = [
  'optimization.finished',
  'optimization.failed',
  'project.dispatched',
  'stop.done',
  'stop.failed',
  'stop.eta_changed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookEvent {
  /** Unique per event, the same in every attempt and to every URL: receivers de-duplicate by it. */
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Record<string, unknown>;
}

/** An event of the dispatch's: its id and time those of the change it tells of, the same each time the dispatch tells it. */
function noticed(type: WebhookEventType, notice: NoticeStamp, data: Record<string, unknown>, part = ''): WebhookEvent {
  return { id: part === '' ? notice.id : uuidOf(`${notice.id}\n${part}`), type, created_at: notice.at, data };
}

/** A UUID-shaped id made from `text` (one change may tell several events, one per stop). */
function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * An action that has ended (a one-off schedule, a project's optimization or re-optimization): one
 * event per action, its id made from the action's and its time the ending's, however often it is told.
 */
export function actionEnded(stored: StoredAction, now: Date): WebhookEvent {
  const { record } = stored;
  const project = record.project_id !== undefined ? projectOfAction(stored) : {};
  const common = { action_id: record.actionUuid, action_name: record.actionName, status: record.status, owner: stored.owner, ...project };
  const ended = { id: uuidOf(`${record.actionUuid}\nended`), created_at: record.finished_at ?? now.toISOString() };
  if (record.status === 'finished') {
    const summary = record.solution?.summary;
    const counts = summary ? { summary: { served: summary.served, unserved: summary.unserved, routes_used: summary.routes_used } } : {};
    return { ...ended, type: 'optimization.finished', data: { ...common, finished_at: record.finished_at, ...counts } };
  }
  const error = record.error ? { code: record.error.code, message: record.error.message } : undefined;
  return { ...ended, type: 'optimization.failed', data: { ...common, finished_at: record.finished_at, ...(error ? { error } : {}) } };
}

function projectOfAction(stored: StoredAction): Record<string, unknown> {
  const name = (stored.document as { name?: unknown } | null)?.name;
  return {
    project_id: stored.record.project_id,
    ...(typeof name === 'string' ? { project_name: name } : {}),
    ...(stored.record.project_version !== undefined ? { project_version: stored.record.project_version } : {}),
  };
}

function projectFields(owner: string, project: DispatchedProject): Record<string, unknown> {
  return { project_id: project.id, project_name: project.name, project_date: project.date, owner };
}

export function projectDispatched(dispatched: DispatchedEvent): WebhookEvent {
  const stops = dispatched.stops;
  return noticed('project.dispatched', dispatched.notice, {
    ...projectFields(dispatched.owner, dispatched.project),
    ...(dispatched.action_id !== undefined ? { action_id: dispatched.action_id } : {}),
    dispatched_at: dispatched.dispatched_at,
    redispatch: dispatched.redispatch,
    stops: { total: stops.length, planned: stops.filter((stop) => stop.status === 'planned').length },
  });
}

export function stopReported(reported: StopReportedEvent): WebhookEvent {
  return noticed(reported.status === 'done' ? 'stop.done' : 'stop.failed', reported.notice, {
    ...projectFields(reported.owner, reported.project),
    stop_id: reported.stop.stop_id,
    driver_id: reported.driver_id,
    status: reported.status,
    at: reported.at,
    dispatched_at: reported.dispatched_at,
    ...(reported.reason_code !== undefined ? { reason_code: reported.reason_code } : {}),
  });
}

/** One event per stop whose estimate moved (by a minute or more: dispatch/eta.ts). */
export function etasChanged(changed: EtaChangedEvent): WebhookEvent[] {
  return changed.stops.map(({ stop, eta_s, late }) =>
    noticed(
      'stop.eta_changed',
      changed.notice,
      {
        ...projectFields(changed.owner, changed.project),
        stop_id: stop.stop_id,
        eta_s,
        eta: formatClock(eta_s),
        late,
        ...(stop.arrival_s != null ? { planned_arrival_s: stop.arrival_s } : {}),
        ...(stop.promised !== undefined ? { promised: stop.promised } : {}),
      },
      stop.stop_id,
    ),
  );
}
