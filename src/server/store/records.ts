/** What both stores derive from a record the same way, so that neither can drift from the other. */
import type { ActionRecord } from '../api-types.js';
import type { Ending, ProjectRecord, ProjectSummary } from './ports.js';

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
