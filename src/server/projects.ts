/**
 * Projects (surface A): created from a validated document, never optimized by their creation.
 * Optimization is an action started by the project's page (POST /v1.0/project/{id}/optimize); the
 * project's answers list those actions, looked up from the actions' index rather than stored here,
 * so their status is always the current one.
 */
import { randomUUID } from 'node:crypto';
import type { Warning } from '../errors.js';
import type { JsonStore } from './store.js';
import type { GeocodingFailure, OptimizationSummary } from './api-types.js';
import { IdempotencyConflictError, IdempotencyKeys, type IdempotencyClaim } from './idempotency.js';

/** What POST /v1.0/project and GET /v1.0/project/{id} answer. */
export interface ProjectRecord {
  id: string;
  name: string;
  date: string;
  drivers: ({ id: string } & Record<string, unknown>)[];
  stops: ({ id: string } & Record<string, unknown>)[];
  settings: Record<string, unknown>;
  /** The project's page, where it is optimized. */
  url: string;
  created_at: string;
  warnings?: Warning[];
  /** Only for a project with addresses to geocode: `pending` until the geocoder is through. */
  geocoding_status?: 'pending' | 'done';
  /** The addresses the geocoder could not place well, once done. */
  geocoding?: GeocodingFailure[];
}

/** Where a project's optimizations are known (the actions' index). */
export interface Optimizations {
  /** Newest first. */
  of(projectId: string): OptimizationSummary[];
  latestOf(projectId: string): OptimizationSummary | null;
}

/** A project record as answered: with its optimizations, newest first. */
export type ProjectView = ProjectRecord & { optimizations: OptimizationSummary[] };

export type ProjectSummary = Pick<ProjectRecord, 'id' | 'name' | 'date' | 'url' | 'created_at'> & {
  drivers: number;
  stops: number;
};

/** A project in the caller's list, with its latest optimization. */
export type ProjectListItem = ProjectSummary & { latest_optimization: OptimizationSummary | null };

interface StoredProject {
  owner: string;
  /** The `Idempotency-Key` it was created with, and the fingerprint of that request. */
  idempotency?: IdempotencyClaim;
  /** The request as accepted, solved again by each optimize action. */
  document: Record<string, unknown>;
  record: ProjectRecord;
}

export class ProjectService {
  private readonly index = new Map<string, { owner: string; summary: ProjectSummary }>();
  private readonly idempotencyKeys = new IdempotencyKeys();

  constructor(
    private readonly store: JsonStore,
    private readonly pageUrl: (id: string) => string,
    private readonly log: (event: Record<string, unknown>) => void,
    private readonly optimizations: Optimizations,
  ) {}

  async recover(): Promise<number> {
    const { records, unreadable } = await this.store.readAll<StoredProject>('projects');
    for (const bad of unreadable) this.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const stored of records) {
      this.index.set(stored.record.id, { owner: stored.owner, summary: summarize(stored.record) });
      if (stored.idempotency) this.idempotencyKeys.remember(stored.owner, stored.idempotency.key, stored.record.id);
    }
    return records.length;
  }

  /**
   * create(), once per Idempotency-Key (idempotency.ts): a repeat of the request that created a
   * project finds that project (`replayed`, as it is now); another request with the key throws
   * IdempotencyConflictError.
   */
  async createOnce(
    owner: string,
    document: Record<string, unknown>,
    warnings: Warning[],
    geocodingPending: boolean,
    idempotency: IdempotencyClaim,
  ): Promise<{ record: ProjectView; replayed: boolean }> {
    return this.idempotencyKeys.inTurn(owner, idempotency.key, async () => {
      const id = this.idempotencyKeys.lookup(owner, idempotency.key);
      const stored = id === undefined ? null : await this.store.read<StoredProject>('projects', id);
      if (stored && id !== undefined) {
        if (stored.idempotency?.fingerprint !== idempotency.fingerprint) throw new IdempotencyConflictError({ kind: 'project', id });
        return { record: { ...stored.record, optimizations: this.optimizations.of(id) }, replayed: true };
      }
      const record = await this.create(owner, document, warnings, geocodingPending, idempotency);
      this.idempotencyKeys.remember(owner, idempotency.key, record.id);
      return { record, replayed: false };
    });
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
      settings: isObject(document.settings) ? document.settings : {},
      url: this.pageUrl(id),
      created_at: new Date().toISOString(),
      ...(warnings.length > 0 ? { warnings } : {}),
      ...(geocodingPending ? { geocoding_status: 'pending' as const } : {}),
    };
    await this.store.write('projects', id, { owner, ...(idempotency ? { idempotency } : {}), document, record } satisfies StoredProject);
    this.index.set(id, { owner, summary: summarize(record) });
    return { ...record, optimizations: [] };
  }

  /** The project with its stored request, if `owner` created it; null otherwise. */
  async find(owner: string, id: string): Promise<{ record: ProjectView; document: Record<string, unknown> } | null> {
    if (this.index.get(id)?.owner !== owner) return null;
    const stored = await this.store.read<StoredProject>('projects', id);
    if (!stored || stored.owner !== owner) return null;
    return { record: { ...stored.record, optimizations: this.optimizations.of(id) }, document: stored.document };
  }

  /** Records what geocoding found; the project then can be optimized. */
  async geocoded(id: string, failures: GeocodingFailure[]): Promise<void> {
    const stored = await this.store.read<StoredProject>('projects', id);
    if (!stored) return;
    stored.record = { ...stored.record, geocoding_status: 'done', geocoding: failures };
    await this.store.write('projects', id, stored);
  }

  /** Projects whose geocoding a stop of the service interrupted: to start again. */
  async pendingGeocoding(): Promise<{ id: string; document: Record<string, unknown> }[]> {
    const { records } = await this.store.readAll<StoredProject>('projects');
    return records
      .filter((stored) => stored.record.geocoding_status === 'pending')
      .map((stored) => ({ id: stored.record.id, document: stored.document }));
  }

  /** The owner's projects, newest first. */
  list(owner: string): ProjectListItem[] {
    return [...this.index.values()]
      .filter((entry) => entry.owner === owner)
      .map((entry) => ({ ...entry.summary, latest_optimization: this.optimizations.latestOf(entry.summary.id) }))
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));
  }
}

function summarize(record: ProjectRecord): ProjectSummary {
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

function withIds(items: unknown): ({ id: string } & Record<string, unknown>)[] {
  if (!Array.isArray(items)) return [];
  return items.map((item) => {
    const id = randomUUID();
    // The service's id wins over any `id` the client sent, and stays the first field.
    return Object.assign({ id }, isObject(item) ? item : {}, { id });
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
