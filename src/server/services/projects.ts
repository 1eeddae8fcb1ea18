/**
 * Projects (surface A): created from a validated document, never optimized by their creation.
 * Optimization is an action started by the project's page (POST /v1.0/project/{id}/optimize); the
 * project's answers list those actions, looked up from the actions' index rather than stored here,
 * so their status is always the current one.
 */
import { randomUUID } from 'node:crypto';
import type { Warning } from '../../errors.js';
import type { GeocodingFailure, OptimizationSummary } from '../api-types.js';
import { IdempotencyConflictError, IdempotencyTurns, type IdempotencyClaim } from './idempotency.js';
import type { Optimizations, ProjectRecord, ProjectStore, ProjectSummary, StoredProject } from '../store/ports.js';
import { projectVersion } from '../store/records.js';
import type { ProjectContents } from './project-edits.js';
import { isPlainObject } from '../../input/index.js';

export type { Optimizations, ProjectRecord, ProjectSummary } from '../store/ports.js';

/** A project record as answered: with its optimizations, newest first. */
export type ProjectView = ProjectRecord & { optimizations: OptimizationSummary[] };

/** A project in the caller's list, with its latest optimization. */
export type ProjectListItem = ProjectSummary & { latest_optimization: OptimizationSummary | null };

/** A change of a project's contents (project-edits.ts builds them), as the API asks for it. */
export interface ProjectChange {
  /** The version the caller last saw (`If-Match`); absent, the change applies to whatever is current. */
  expectedVersion?: number;
  /** The new contents from the current ones; throws to change nothing (an unknown stop, a bad body). */
  edit(current: ProjectContents): ProjectContents;
  /** Validates the new document as a new project's: its warnings, or throws; and whether it has addresses to geocode. */
  accept(document: Record<string, unknown>): { warnings: Warning[]; geocode: boolean };
}

export type ChangeOutcome =
  | { outcome: 'changed'; record: ProjectView; document: Record<string, unknown>; geocode: boolean }
  | { outcome: 'stale'; version: number }
  | { outcome: 'missing' };

/** Attempts of a change without If-Match, each on the then current version, before it gives up as stale. */
const CHANGE_ATTEMPTS = 5;

export class ProjectService {
  private readonly idempotencyTurns = new IdempotencyTurns();

  constructor(
    private readonly store: ProjectStore,
    private readonly pageUrl: (id: string) => string,
    private readonly optimizations: Optimizations,
  ) {}

  /**
   * create(), once per Idempotency-Key (idempotency.ts): a repeat of the request that created a
   * project finds that project (`replayed`, as it is now); another request with the key throws
   * IdempotencyConflictError.
   */
  createOnce(
    owner: string,
    document: Record<string, unknown>,
    warnings: Warning[],
    geocodingPending: boolean,
    idempotency: IdempotencyClaim,
  ): Promise<{ record: ProjectView; replayed: boolean }> {
    return this.idempotencyTurns.once(owner, idempotency.key, {
      earlier: () => this.createdWith(owner, idempotency),
      create: () => this.create(owner, document, warnings, geocodingPending, idempotency),
    });
  }

  private async createdWith(owner: string, idempotency: IdempotencyClaim): Promise<ProjectView | null> {
    const stored = await this.store.findByIdempotencyKey(owner, idempotency.key);
    if (!stored) return null;
    const id = stored.record.id;
    if (stored.idempotency?.fingerprint !== idempotency.fingerprint) throw new IdempotencyConflictError({ kind: 'project', id });
    return { ...stored.record, optimizations: await this.optimizations.of(id) };
  }

  async create(
    owner: string,
    document: Record<string, unknown>,
    warnings: Warning[],
    geocodingPending = false,
    idempotency?: IdempotencyClaim,
  ): Promise<ProjectView> {
    const id = randomUUID();
    const record: ProjectRecord = {
      id,
      name: String(document.name),
      date: String(document.date),
      drivers: withIds(document.drivers),
      stops: withIds(document.stops),
      settings: isPlainObject(document.settings) ? document.settings : {},
      url: this.pageUrl(id),
      created_at: new Date().toISOString(),
      version: 1,
      ...(warnings.length > 0 ? { warnings } : {}),
      ...(geocodingPending ? { geocoding_status: 'pending' as const } : {}),
    };
    await this.store.save({ owner, ...(idempotency ? { idempotency } : {}), document, record });
    return { ...record, optimizations: [] };
  }

  /** The project with its stored request, if `owner` created it; null otherwise. */
  async find(owner: string, id: string): Promise<{ record: ProjectView; document: Record<string, unknown> } | null> {
    const stored = await this.store.load(id);
    if (!stored || stored.owner !== owner) return null;
    return { record: await this.viewOf(stored), document: stored.document };
  }

  /**
   * Changes the project of `owner`, one version at a time: the whole new document is built and
   * accepted from the version read, and written only if it is still the current one (the store's
   * compare-and-set). With `expectedVersion` any other version is `stale` and nothing changes;
   * without it a change that lost a race is made again on the version that won.
   */
  async change(owner: string, id: string, change: ProjectChange): Promise<ChangeOutcome> {
    for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
      const stored = await this.store.load(id);
      if (!stored || stored.owner !== owner) return { outcome: 'missing' };
      const version = projectVersion(stored.record);
      if (change.expectedVersion !== undefined && change.expectedVersion !== version) return { outcome: 'stale', version };
      const contents = change.edit(contentsOf(stored));
      const { warnings, geocode } = change.accept(contents.document);
      const next = { ...stored, document: contents.document, record: changedRecord(stored.record, contents, warnings, geocode) };
      const written = await this.store.update(next, version);
      if (written === 'missing') return { outcome: 'missing' };
      if (written === 'updated') return { outcome: 'changed', record: await this.viewOf(next), document: contents.document, geocode };
    }
    const current = await this.store.load(id);
    return current ? { outcome: 'stale', version: projectVersion(current.record) } : { outcome: 'missing' };
  }

  /**
   * Records what geocoding the project's version `version` found; the project then can be
   * optimized. A change made meanwhile geocodes its own document, so this result is dropped. The
   * version stays: geocoding changes no contents, and an If-Match read before it still holds.
   */
  async geocoded(id: string, version: number, failures: GeocodingFailure[]): Promise<void> {
    const stored = await this.store.load(id);
    if (!stored || projectVersion(stored.record) !== version) return;
    stored.record = { ...stored.record, geocoding_status: 'done', geocoding: failures };
    await this.store.update(stored, version);
  }

  /** Projects whose geocoding a stop of the service interrupted: to start again. */
  async pendingGeocoding(): Promise<{ id: string; version: number; document: Record<string, unknown> }[]> {
    return (await this.store.pendingGeocoding()).map((stored: StoredProject) => ({
      id: stored.record.id,
      version: projectVersion(stored.record),
      document: stored.document,
    }));
  }

  private async viewOf(stored: StoredProject): Promise<ProjectView> {
    const id = stored.record.id;
    return { ...stored.record, version: projectVersion(stored.record), optimizations: await this.optimizations.of(id) };
  }

  /** The owner's projects, newest first. */
  async list(owner: string): Promise<ProjectListItem[]> {
    const summaries = await this.store.summariesOf(owner);
    const latest = await this.optimizations.latestOfEach(summaries.map((summary) => summary.id));
    const items = summaries.map((summary) => ({ ...summary, latest_optimization: latest.get(summary.id) ?? null }));
    return items.sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));
  }
}

function contentsOf(stored: StoredProject): ProjectContents {
  return {
    document: stored.document,
    stopIds: stored.record.stops.map((stop) => stop.id),
    driverIds: stored.record.drivers.map((driver) => driver.id),
  };
}

/** The record of the changed contents, one version on; geocoding starts over when the document has addresses to place. */
function changedRecord(record: ProjectRecord, contents: ProjectContents, warnings: Warning[], geocode: boolean): ProjectRecord {
  const { document } = contents;
  const { warnings: _warnings, geocoding_status: _status, geocoding: _failures, ...kept } = record;
  return {
    ...kept,
    name: String(document.name),
    date: String(document.date),
    drivers: withGivenIds(document.drivers, contents.driverIds),
    stops: withGivenIds(document.stops, contents.stopIds),
    settings: isPlainObject(document.settings) ? document.settings : {},
    version: projectVersion(record) + 1,
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(geocode ? { geocoding_status: 'pending' as const } : {}),
  };
}

/** The items under the ids they already have (the service's, first), in order. */
function withGivenIds(items: unknown, ids: string[]): ({ id: string } & Record<string, unknown>)[] {
  if (!Array.isArray(items)) return [];
  return items.map((item, i) => Object.assign({ id: ids[i]! }, isPlainObject(item) ? item : {}, { id: ids[i]! }));
}

/** The items under new ids. */
function withIds(items: unknown): ({ id: string } & Record<string, unknown>)[] {
  return withGivenIds(items, Array.isArray(items) ? items.map(() => randomUUID()) : []);
}
