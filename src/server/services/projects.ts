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

export type { Optimizations, ProjectRecord, ProjectSummary } from '../store/ports.js';

/** A project record as answered: with its optimizations, newest first. */
export type ProjectView = ProjectRecord & { optimizations: OptimizationSummary[] };

/** A project in the caller's list, with its latest optimization. */
export type ProjectListItem = ProjectSummary & { latest_optimization: OptimizationSummary | null };

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
      settings: isObject(document.settings) ? document.settings : {},
      url: this.pageUrl(id),
      created_at: new Date().toISOString(),
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
    return { record: { ...stored.record, optimizations: await this.optimizations.of(id) }, document: stored.document };
  }

  /** Records what geocoding found; the project then can be optimized. */
  async geocoded(id: string, failures: GeocodingFailure[]): Promise<void> {
    const stored = await this.store.load(id);
    if (!stored) return;
    stored.record = { ...stored.record, geocoding_status: 'done', geocoding: failures };
    await this.store.save(stored);
  }

  /** Projects whose geocoding a stop of the service interrupted: to start again. */
  async pendingGeocoding(): Promise<{ id: string; document: Record<string, unknown> }[]> {
    return (await this.store.pendingGeocoding()).map((stored: StoredProject) => ({ id: stored.record.id, document: stored.document }));
  }

  /** The owner's projects, newest first. */
  async list(owner: string): Promise<ProjectListItem[]> {
    const summaries = await this.store.summariesOf(owner);
    const latest = await this.optimizations.latestOfEach(summaries.map((summary) => summary.id));
    const items = summaries.map((summary) => ({ ...summary, latest_optimization: latest.get(summary.id) ?? null }));
    return items.sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));
  }
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
