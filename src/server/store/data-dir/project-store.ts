/**
 * The data directory's ProjectStore (ports.ts): every project's summary in memory, its one process
 * being the only writer.
 */
import { IdempotencyKeyTakenError } from '../errors.js';
import { KeyedTurns } from '../../turns.js';
import type { ProjectRef, ProjectStore, ProjectSummary, ProjectUpdate, StoredProject } from '../ports.js';
import { projectVersion, summarize } from '../records.js';
import type { JsonStore } from './json-store.js';

/** Projects as JSON files in the data directory, `projects/<id>.json`, with an index in memory. */
export class DataDirProjectStore implements ProjectStore {
  private readonly index = new Map<string, { owner: string; summary: ProjectSummary }>();
  private readonly bySlot = new Map<string, string>();
  /** Compare-and-set changes of one project, one after another: this process is the only writer. */
  private readonly changes = new KeyedTurns();

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
    const taken = stored.idempotency && this.bySlot.get(`${stored.owner}\n${stored.idempotency.key}`);
    // As PostgreSQL's unique key: within this one process, IdempotencyTurns already looks first.
    if (taken && taken !== stored.record.id) throw new IdempotencyKeyTakenError();
    await this.json.write('projects', stored.record.id, stored);
    this.remember(stored);
  }

  update(next: StoredProject, expectedVersion: number): Promise<ProjectUpdate> {
    return this.changes.run(next.record.id, async () => {
      const current = await this.load(next.record.id);
      if (!current) return 'missing';
      if (projectVersion(current.record) !== expectedVersion) return 'stale';
      await this.save(next);
      return 'updated';
    });
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

  remove(id: string): Promise<void> {
    // In the project's turn, so that a change under way is not written back after the delete.
    return this.changes.run(id, async () => {
      await this.json.remove('projects', id);
      this.index.delete(id);
      for (const [slot, holder] of this.bySlot) if (holder === id) this.bySlot.delete(slot);
    });
  }

  datedBefore(date: string): Promise<ProjectRef[]> {
    const refs = [...this.index].filter(([, entry]) => entry.summary.date < date).map(([id, entry]) => ({ id, owner: entry.owner }));
    return Promise.resolve(refs);
  }

  private remember(stored: StoredProject): void {
    this.index.set(stored.record.id, { owner: stored.owner, summary: summarize(stored.record) });
    if (stored.idempotency) this.bySlot.set(`${stored.owner}\n${stored.idempotency.key}`, stored.record.id);
  }
}
