/** What both stores derive from a record the same way, so that neither can drift from the other. */
import type { ActionRecord } from '../api-types.js';
import type { Ending, ProjectRecord, ProjectSummary } from './ports.js';
import type { ActionListItem } from '../action-list.js';

/** A project as its owner's list shows it. */
export function summarize(record: ProjectRecord): ProjectSummary {
  return {
    id: record.id,
    name: record.name,
    date: record.date,
    url: record.url,
    created_at: record.created_at,
    drivers: record.drivers.length,
    stops: record.stops.length,
  };
}

/** The project's version; a record stored before versions existed is version 1. */
export function projectVersion(record: ProjectRecord): number {
  return record.version ?? 1;
}

/** The record of a pending action once it has ended, now. */
export function endedRecord(record: ActionRecord, ending: Ending): ActionRecord {
  const now = new Date().toISOString();
  return { ...record, ...ending, finished_at: now, updated_at: now };
}

/** The fields of an action that its owner's list shows (GET /v2/schedules): neither its request nor its plan. */
export type Listable = Pick<
  ActionRecord,
  'actionUuid' | 'actionName' | 'status' | 'created_at' | 'updated_at' | 'started_at' | 'finished_at' | 'project_id' | 'kind' | 'error'
>;

/** An action as its owner's list shows it. */
export function listed(record: Listable): ActionListItem {
  return {
    actionUuid: record.actionUuid,
    actionName: record.actionName,
    status: record.status,
    created_at: record.created_at,
    updated_at: record.updated_at,
    ...(record.started_at !== undefined ? { started_at: record.started_at } : {}),
    ...(record.finished_at !== undefined ? { finished_at: record.finished_at } : {}),
    ...(record.project_id !== undefined ? { project_id: record.project_id } : {}),
    ...(record.kind !== undefined ? { kind: record.kind } : {}),
    ...(record.status === 'failed' && record.error !== undefined ? { error: record.error } : {}),
  };
}
