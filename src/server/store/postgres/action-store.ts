/**
 * PostgreSQL's ActionStore (ports.ts), shared by every process: one row each, the whole stored
 * action as `json` beside the columns the queries need. A change, the ending too, is written only
 * over a pending row, so of two processes ending one action (a cancel and a finished solve) the
 * first wins. An ending counts once it is written: every process reads the row.
 */
import type { ActionProgress, OptimizationSummary } from '../../api-types.js';
import type { ActionRef, ActionStore, EndOutcome, Ending, StoredAction } from '../ports.js';
import type { ActionListItem, ActionListRequest } from '../../action-list.js';
import { IdempotencyKeyTakenError } from '../errors.js';
import { endedRecord, listed, type Listable } from '../records.js';
import { UNIQUE_VIOLATION, type Database, type Queryable } from './database.js';

/** Progress is written at most this often per solve: polls see it within a second, the database is spared. */
const PROGRESS_INTERVAL_MS = 1_000;

/** Solves per owner that are pending: waiting (never started, or waiting for a retry) and running. */
export interface PendingCounts {
  waiting: number;
  running: number;
  /** How long the owner's oldest waiting one has waited, in seconds (by the database's clock); 0 when none waits. */
  oldestWaitingSeconds: number;
}

export class PgActionStore implements ActionStore {
  private readonly progressWrittenAt = new Map<string, number>();

  constructor(private readonly db: Database) {}

  /** `on`: the pool, or a transaction that also checked the queue's limits (PgSolveQueue.admit). */
  async create(stored: StoredAction, on: Queryable = this.db): Promise<void> {
    const { record } = stored;
    try {
      await on.query(
        `INSERT INTO routeplan_actions (action_uuid, owner, project_id, status, created_at, started_at, ended_at, idempotency_key, stored)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          record.actionUuid,
          stored.owner,
          record.project_id ?? null,
          record.status,
          record.created_at,
          record.started_at ?? null,
          record.finished_at ?? null,
          stored.idempotency?.key ?? null,
          JSON.stringify(stored),
        ],
      );
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new IdempotencyKeyTakenError({ cause: error });
      throw error;
    }
  }

  update(stored: StoredAction): Promise<boolean> {
    return this.writeOverPending(stored);
  }

  async end(stored: StoredAction, ending: Ending): Promise<EndOutcome> {
    const ended = { ...stored, record: endedRecord(stored.record, ending) };
    if (!(await this.writeOverPending(ended))) return 'lost-race';
    stored.record = ended.record;
    return 'written';
  }

  /** Writes the action over its row if that is still pending: false when it has ended, or is gone. */
  private async writeOverPending(stored: StoredAction): Promise<boolean> {
    const { record } = stored;
    const result = await this.db.query(
      `UPDATE routeplan_actions SET status = $2, started_at = $3, ended_at = $4, stored = $5, ending_untold = $6,
         progress = CASE WHEN $2 = 'pending' THEN progress ELSE NULL END
       WHERE action_uuid = $1 AND status = 'pending'`,
      [
        record.actionUuid,
        record.status,
        record.started_at ?? null,
        record.finished_at ?? null,
        JSON.stringify(stored),
        stored.ending_untold === true && record.status !== 'pending',
      ],
    );
    return result.rowCount === 1;
  }

  async load(actionUuid: string): Promise<StoredAction | null> {
    const { rows } = await this.db.query<{ stored: StoredAction }>('SELECT stored FROM routeplan_actions WHERE action_uuid = $1', [
      actionUuid,
    ]);
    return rows[0]?.stored ?? null;
  }

  async findByIdempotencyKey(owner: string, key: string): Promise<StoredAction | null> {
    const { rows } = await this.db.query<{ stored: StoredAction }>(
      'SELECT stored FROM routeplan_actions WHERE owner = $1 AND idempotency_key = $2',
      [owner, key],
    );
    return rows[0]?.stored ?? null;
  }

  async remove(actionUuid: string): Promise<void> {
    await this.db.query('DELETE FROM routeplan_actions WHERE action_uuid = $1', [actionUuid]);
  }

  async endedBefore(before: Date): Promise<ActionRef[]> {
    const { rows } = await this.db.query<{ action_uuid: string; owner: string }>(
      "SELECT action_uuid, owner FROM routeplan_actions WHERE status <> 'pending' AND ended_at < $1",
      [before.toISOString()],
    );
    return rows.map((row) => ({ actionUuid: row.action_uuid, owner: row.owner }));
  }

  /** By the partial index of migration 5: the few rows marked, never a scan of every stored plan. */
  async endingsUntold(): Promise<StoredAction[]> {
    const { rows } = await this.db.query<{ stored: StoredAction }>(
      'SELECT stored FROM routeplan_actions WHERE ending_untold ORDER BY ended_at, action_uuid',
    );
    return rows.map((row) => row.stored);
  }

  async endingTold(actionUuid: string): Promise<void> {
    await this.db.query(
      "UPDATE routeplan_actions SET ending_untold = false, stored = (stored::jsonb - 'ending_untold')::json WHERE action_uuid = $1 AND ending_untold",
      [actionUuid],
    );
  }

  /** By the owner's index (migration 3), newest first; the record without its plan is all that is read out. */
  async listOf(owner: string, request: ActionListRequest): Promise<ActionListItem[]> {
    const { rows } = await this.db.query<{ record: Listable }>(
      `SELECT (stored->'record')::jsonb - 'solution' - 'warnings' - 'progress' AS record FROM routeplan_actions
       WHERE owner = $1 AND ($2::text IS NULL OR status = $2)
         AND ($3::timestamptz IS NULL OR (created_at, action_uuid) < ($3::timestamptz, $4::text))
       ORDER BY created_at DESC, action_uuid DESC LIMIT $5`,
      [owner, request.status ?? null, request.after?.created_at ?? null, request.after?.actionUuid ?? null, request.limit],
    );
    return rows.map((row) => listed(row.record));
  }

  setProgress(actionUuid: string, progress: ActionProgress): void {
    const now = Date.now();
    if (now - (this.progressWrittenAt.get(actionUuid) ?? 0) < PROGRESS_INTERVAL_MS) return;
    this.progressWrittenAt.set(actionUuid, now);
    // Best effort: progress is a courtesy to pollers, and a lost one is replaced a second later.
    void this.db
      .query("UPDATE routeplan_actions SET progress = $2 WHERE action_uuid = $1 AND status = 'pending'", [
        actionUuid,
        JSON.stringify(progress),
      ])
      .catch(() => undefined);
  }

  async progressOf(actionUuid: string): Promise<ActionProgress | undefined> {
    const { rows } = await this.db.query<{ progress: ActionProgress | null }>(
      "SELECT progress FROM routeplan_actions WHERE action_uuid = $1 AND status = 'pending'",
      [actionUuid],
    );
    return rows[0]?.progress ?? undefined;
  }

  clearProgress(actionUuid: string): void {
    this.progressWrittenAt.delete(actionUuid);
    void this.db
      .query("UPDATE routeplan_actions SET progress = NULL WHERE action_uuid = $1 AND status = 'pending'", [actionUuid])
      .catch(() => undefined);
  }

  async of(projectId: string): Promise<OptimizationSummary[]> {
    const { rows } = await this.db.query<SummaryRow>(
      `SELECT action_uuid, status, created_at, stored->'record'->>'kind' AS kind FROM routeplan_actions WHERE project_id = $1 ORDER BY created_at DESC`,
      [projectId],
    );
    return rows.map(summaryOf);
  }

  async latestOfEach(projectIds: string[]): Promise<Map<string, OptimizationSummary>> {
    const { rows } = await this.db.query<SummaryRow & { project_id: string }>(
      `SELECT DISTINCT ON (project_id) project_id, action_uuid, status, created_at, stored->'record'->>'kind' AS kind FROM routeplan_actions
       WHERE project_id = ANY($1) ORDER BY project_id, created_at DESC`,
      [projectIds],
    );
    return new Map(rows.map((row) => [row.project_id, summaryOf(row)]));
  }

  /** The pending actions never started that were created before `before`. */
  async unstartedBefore(before: Date): Promise<ActionRef[]> {
    const { rows } = await this.db.query<{ action_uuid: string; owner: string }>(
      "SELECT action_uuid, owner FROM routeplan_actions WHERE status = 'pending' AND started_at IS NULL AND created_at < $1",
      [before.toISOString()],
    );
    return rows.map((row) => ({ actionUuid: row.action_uuid, owner: row.owner }));
  }

  /** Per owner with any, its pending solves: waiting and running. */
  async pendingCounts(on: Queryable = this.db): Promise<Map<string, PendingCounts>> {
    const { rows } = await on.query<{ owner: string; waiting: string; running: string; oldest: number | null }>(
      `SELECT owner, count(*) FILTER (WHERE started_at IS NULL) AS waiting, count(*) FILTER (WHERE started_at IS NOT NULL) AS running,
         extract(epoch FROM now() - min(created_at) FILTER (WHERE started_at IS NULL))::float8 AS oldest
       FROM routeplan_actions WHERE status = 'pending' GROUP BY owner`,
    );
    return new Map(
      rows.map((row) => [
        row.owner,
        { waiting: Number(row.waiting), running: Number(row.running), oldestWaitingSeconds: Math.max(0, row.oldest ?? 0) },
      ]),
    );
  }
}

interface SummaryRow {
  action_uuid: string;
  status: OptimizationSummary['status'];
  created_at: Date;
  /** The record's kind, null for one stored before kinds (an optimize action). */
  kind: OptimizationSummary['kind'] | null;
}

function summaryOf(row: SummaryRow): OptimizationSummary {
  return { actionUuid: row.action_uuid, status: row.status, created_at: row.created_at.toISOString(), kind: row.kind ?? 'optimized' };
}
