/**
 * Where projects are kept (projects.ts): the data directory (DataDirProjectStore, with an index
 * of every project in memory, its one process being the only writer) or PostgreSQL
 * (postgres/project-store.ts, shared by every process).
 */
import type { IdempotencyClaim } from '../../services/idempotency.js';
import type { Warning } from '../../../errors.js';
import type { GeocodingFailure } from '../../api-types.js';
import type { JsonStore } from './json-store.js';

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

export type ProjectSummary = Pick<ProjectRecord, 'id' | 'name' | 'date' | 'url' | 'created_at'> & {
  drivers: number;
  stops: number;
};

export interface StoredProject {
  owner: string;
  /** The `Idempotency-Key` it was created with, and the fingerprint of that request. */
  idempotency?: IdempotencyClaim;
  /** The request as accepted, solved again by each optimize action. */
  document: Record<string, unknown>;
  record: ProjectRecord;
}

export interface ProjectStore {
  /** Creates or replaces the project, durably; IdempotencyKeyTakenError when another has its owner and key. */
  save(stored: StoredProject): Promise<void>;
  load(id: string): Promise<StoredProject | null>;
  findByIdempotencyKey(owner: string, key: string): Promise<StoredProject | null>;
  /** The owner's projects, in no particular order. */
  summariesOf(owner: string): Promise<ProjectSummary[]>;
  /** Projects whose geocoding has not finished. */
  pendingGeocoding(): Promise<StoredProject[]>;
}

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

export class DataDirProjectStore implements ProjectStore {
  private readonly index = new Map<string, { owner: string; summary: ProjectSummary }>();
  private readonly bySlot = new Map<string, string>();

  constructor(
    private readonly json: JsonStore,
    private readonly log: (event: Record<string, unknown>) => void,
  ) {}

  /** Reads every project into the index; answers how many. */
  async recover(): Promise<number> {
    const { records, unreadable } = await this.json.readAll<StoredProject>('projects');
    for (const bad of unreadable) this.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const stored of records) this.remember(stored);
    return records.length;
  }

  async save(stored: StoredProject): Promise<void> {
    await this.json.write('projects', stored.record.id, stored);
    this.remember(stored);
  }

  async load(id: string): Promise<StoredProject | null> {
    if (!this.index.has(id)) return null;
    return this.json.read<StoredProject>('projects', id);
  }

  async findByIdempotencyKey(owner: string, key: string): Promise<StoredProject | null> {
    const id = this.bySlot.get(`${owner}\n${key}`);
    return id === undefined ? null : this.load(id);
  }

  summariesOf(owner: string): Promise<ProjectSummary[]> {
    return Promise.resolve([...this.index.values()].filter((entry) => entry.owner === owner).map((entry) => ({ ...entry.summary })));
  }

  async pendingGeocoding(): Promise<StoredProject[]> {
    const { records } = await this.json.readAll<StoredProject>('projects');
    return records.filter((stored) => stored.record.geocoding_status === 'pending');
  }

  private remember(stored: StoredProject): void {
    this.index.set(stored.record.id, { owner: stored.owner, summary: summarize(stored.record) });
    if (stored.idempotency) this.bySlot.set(`${stored.owner}\n${stored.idempotency.key}`, stored.record.id);
  }
}
