/**
 * What the service needs from storage, whichever keeps it (decisions.md, "Running the service on
 * more than one machine"): the data directory (data-dir/, one process owns it and keeps indexes in
 * memory) or PostgreSQL (postgres/, shared by any number of processes). Both implement every port
 * here, and test/server/store-contract.test.ts holds both to the same rules. Every method that
 * writes resolves once the change counts, and throws StoreUnavailableError (503 with Retry-After)
 * when it cannot be made. Interfaces and record types only: each store's code is in its folder.
 */
import type { ErrorBody } from '../../errors.js';
import type { DocumentKind } from '../../input/index.js';
import type { Plan } from '../../output/plan-types.js';
import type { ActionProgress, ActionRecord, NotificationView, OptimizationSummary } from '../api-types.js';
import type { ActionListItem, ActionListRequest } from '../action-list.js';
import type { z } from 'zod';
import type { projectRecordSchema } from '../api-schemas/projects.js';

export interface StoreHealth {
  /** Which store answers (/healthz); the data directory when absent. */
  kind?: 'data_dir' | 'postgres';
  writable: boolean;
  /** Why the last write failed, while the store is not writable. */
  reason?: string;
}

/** The `Idempotency-Key` a record was created with, and the fingerprint of that request (method, path, body). */
export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
}

// ── Actions ────────────────────────────────────────────────────────────────────────────────────

/** The stored action: the public record plus what is needed to run it again, never shown. */
export interface StoredAction {
  owner: string;
  kind: DocumentKind;
  document: unknown;
  /** Times a run was started (a kill or a power cut in between is no fault of the action's). */
  attempts: number;
  /** Times the service died of an error while this action ran (the data directory counts them at start). */
  crashes?: number;
  idempotency?: IdempotencyClaim;
  /** The id of the request that accepted it (X-Request-Id): its run's log lines carry it, in whichever process. */
  request_id?: string;
  /** Written with the ending while its webhook event is not yet recorded (services/webhooks/action-endings.ts). */
  ending_untold?: true;
  record: ActionRecord;
}

/** An action of one owner, as retention sees it. */
export interface ActionRef {
  actionUuid: string;
  owner: string;
}

/** How an action ends: finished with its plan, or failed with its error. */
export type Ending = { status: 'finished'; solution: Plan } | { status: 'failed'; error: ErrorBody['error'] };

/** What end() came to: the ending counts, or the action had already ended (the earlier ending stands). */
export type EndOutcome = 'written' | 'lost-race';

/** Where a project's optimizations are known (the actions' store). */
export interface Optimizations {
  /** Newest first. */
  of(projectId: string): Promise<OptimizationSummary[]>;
  /** Each project's newest, for those that have one: one look-up for a whole list. */
  latestOfEach(projectIds: string[]): Promise<Map<string, OptimizationSummary>>;
}

export interface ActionStore extends Optimizations {
  /** Stores a new pending action; IdempotencyKeyTakenError when another has its owner and key. */
  create(stored: StoredAction): Promise<void>;
  /**
   * Writes a change of a pending action (its start, its attempts), unless the action has ended
   * (cancelled or finished meanwhile, here or by another process): then nothing is written and
   * the answer is false.
   */
  update(stored: StoredAction): Promise<boolean>;
  /**
   * Ends a pending action. `written`: the ending counts, every reader sees it from now on, and
   * `stored.record` is the ended record. `lost-race`: the action had already ended (a cancel, or
   * another process, came first), that ending stands and `stored` is unchanged. Throws
   * StoreUnavailableError, `stored` unchanged and the action still pending for every reader, when
   * the ending cannot be written: no reader may see an ending the store does not hold (a run then
   * tries it again, services/actions/durable-ending.ts; a cancel answers 503).
   */
  end(stored: StoredAction, ending: Ending): Promise<EndOutcome>;
  /**
   * The action, or null. While it is pending, what every reader of this process shares: a change
   * made through one reader's copy (a cancel ending it) is seen by the run holding another, or
   * the run's end() answers `lost-race`.
   */
  load(actionUuid: string): Promise<StoredAction | null>;
  /** The action `owner` created with this Idempotency-Key, or null. */
  findByIdempotencyKey(owner: string, key: string): Promise<StoredAction | null>;
  /** Deletes the action (its request and plan with it); one already gone is fine. Its ending is never written again. */
  remove(actionUuid: string): Promise<void>;
  /** The ended actions (finished or failed) that ended before `before`, for retention. */
  endedBefore(before: Date): Promise<ActionRef[]>;
  /** The ended actions whose ending was written `ending_untold`, oldest ending first. */
  endingsUntold(): Promise<StoredAction[]>;
  /** Writes the ended action without `ending_untold` (its event is recorded); one gone or already told is fine. */
  endingTold(actionUuid: string): Promise<void>;
  /**
   * The owner's actions (GET /v2/schedules), newest first and ids descending within one instant:
   * at most `request.limit`, only those with `request.status` when given, from after `request.after` on.
   */
  listOf(owner: string, request: ActionListRequest): Promise<ActionListItem[]>;
  /** The latest progress of a running solve: kept where polls of any process can read it, not durably. */
  setProgress(actionUuid: string, progress: ActionProgress): void;
  /** The progress of a pending action's solve, none once it has ended. */
  progressOf(actionUuid: string): Promise<ActionProgress | undefined>;
  clearProgress(actionUuid: string): void;
}

// ── Projects ───────────────────────────────────────────────────────────────────────────────────

/** What POST /v1.0/project and GET /v1.0/project/{id} answer. */
/** A project as stored: its shape is api-schemas/projects.ts's projectRecordSchema (the API answers it). */
export type ProjectRecord = z.infer<typeof projectRecordSchema>;

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

/** A project of one owner, as project retention sees it. */
export interface ProjectRef {
  id: string;
  owner: string;
}

/** What ProjectStore.update came to. */
export type ProjectUpdate = 'updated' | 'stale' | 'missing';

export interface ProjectStore {
  /** Creates or replaces the project; IdempotencyKeyTakenError when another has its owner and key. */
  save(stored: StoredProject): Promise<void>;
  /**
   * Compare-and-set: writes `next` in place of the project only while its stored version is still
   * `expectedVersion` (`updated`); when another change came first nothing is written (`stale`);
   * `missing` when there is no such project. Changes of one project are made one at a time, by
   * every process sharing the store, so of two changes expecting one version exactly one is written.
   */
  update(next: StoredProject, expectedVersion: number): Promise<ProjectUpdate>;
  load(id: string): Promise<StoredProject | null>;
  findByIdempotencyKey(owner: string, key: string): Promise<StoredProject | null>;
  /** The owner's projects, in no particular order. */
  summariesOf(owner: string): Promise<ProjectSummary[]>;
  /** Projects whose geocoding has not finished. */
  pendingGeocoding(): Promise<StoredProject[]>;
  /** Deletes the project (its idempotency key with it); one already gone is fine. */
  remove(id: string): Promise<void>;
  /** The projects whose `date` (YYYY-MM-DD) is earlier than `date`, for project retention. */
  datedBefore(date: string): Promise<ProjectRef[]>;
}

// ── Sessions ───────────────────────────────────────────────────────────────────────────────────

/** A browser session, keyed by the SHA-256 of the cookie's token. */
export interface StoredSession {
  owner: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface SessionStore {
  save(id: string, stored: StoredSession): Promise<void>;
  load(id: string): Promise<StoredSession | null>;
  /** Removes the session; one already gone is fine. */
  remove(id: string): Promise<void>;
  /** Removes every session expired at `now`; answers how many. */
  removeExpired(now: Date): Promise<number>;
}

// ── Records by collection (dispatch, the outbox) ───────────────────────────────────────────────

export type Collection =
  'actions' | 'projects' | 'sessions' | 'dispatches' | 'dispatch-plans' | 'outbox' | 'webhooks' | 'health' | 'crashes';

export interface LoadedRecords<T> {
  records: T[];
  /** Records that could not be read or parsed (left in place for a human to inspect). */
  unreadable: { file: string; reason: string }[];
}

/** Records kept by collection and id, as dispatch and the outbox keep theirs. */
export interface RecordStore {
  write(collection: Collection, id: string, record: unknown): Promise<void>;
  /** The record, or null when there is none. */
  read<T>(collection: Collection, id: string): Promise<T | null>;
  readAll<T>(collection: Collection): Promise<LoadedRecords<T>>;
  /** Deletes the record; one already gone is fine. */
  remove(collection: Collection, id: string): Promise<void>;
  /**
   * Runs `work` (which reads the record, changes it and writes it) as the only such change to the
   * record underway in any process sharing the store, so that no change overwrites another; resolves
   * or rejects as `work` does.
   */
  exclusively<T>(collection: Collection, id: string, work: () => Promise<T>): Promise<T>;
}

// ── Customer messages (the outbox) ─────────────────────────────────────────────────────────────

/** A customer message as kept: what the project lists of it, and what is needed to send it. */
export interface StoredMessage extends NotificationView {
  /** What makes it one message (project, stop, kind, version): `id` is derived from it, so it is stored once. */
  key: string;
  project_id: string;
  owner: string;
  text: string;
  /** When the next attempt is due (queued messages). */
  next_attempt_at?: string;
}

/**
 * The outbox, shared by every process of the store (decisions.md, "Running the service on more
 * than one machine"): each message is stored once by its id, whichever process queues it, and each
 * queued one is sent by one process at a time.
 */
export interface OutboxStore {
  /** Reads what it keeps in memory (the data directory); the unreadable records are logged. */
  recover(log: (event: Record<string, unknown>) => void): Promise<void>;
  /** Stores a new message; false, and nothing written, when one with its id exists (queued by any process). */
  add(message: StoredMessage): Promise<boolean>;
  /** The project's messages, oldest first. */
  ofProject(projectId: string): Promise<StoredMessage[]>;
  /**
   * Takes one queued message due at `now` that no other attempt holds, hands it to `attempt`, and
   * writes the message `attempt` answers; while it runs no process takes that message, and if this
   * process dies it is free again at once. False when none was due.
   */
  claimDue(now: Date, attempt: (message: StoredMessage) => Promise<StoredMessage>): Promise<boolean>;
  /** When the next queued message is due, or null when none is queued. */
  nextDue(): Promise<string | null>;
  /** Deletes a project's messages (a send under way writes none back); how many there were. */
  removeProject(projectId: string): Promise<number>;
}

// ── Webhook deliveries ─────────────────────────────────────────────────────────────────────────

/** One event on its way to one webhook URL (services/webhooks/): kept until delivered or given up, then deleted. */
export interface StoredDelivery {
  /** Derived from the event's id and the URL: one delivery per event and URL. */
  id: string;
  event_id: string;
  event_type: string;
  url: string;
  /** The JSON body exactly as it is signed and sent, every attempt alike. */
  body: string;
  /** When it was recorded: its window of retries runs from then. */
  created_at: string;
  /** Attempts made so far (an attempt cut short by a killed process is not counted). */
  attempts: number;
  next_attempt_at: string;
  /** Why the last attempt failed. */
  last_error?: string;
}

/** What an attempt came to: `done` (delivered, or given up) deletes the delivery; `retry` writes its next attempt. */
export type DeliverySettlement = 'done' | 'retry';

/**
 * The webhook deliveries, shared by every process of the store: each is attempted by one process
 * at a time, under a lease, so that a process killed mid-attempt lets another take it once its lease ends.
 */
export interface WebhookStore {
  /** Reads what it keeps in memory (the data directory); the unreadable records are logged. */
  recover(log: (event: Record<string, unknown>) => void): Promise<void>;
  /** Stores the deliveries of one event (one per URL); one whose id exists is left as it is. */
  add(deliveries: StoredDelivery[]): Promise<void>;
  /**
   * Leases one delivery due at `now` that no unexpired lease holds to `holder` until `now + leaseMs`,
   * and answers it; null when none is due. Until the lease ends no other holder is given it.
   */
  claimDue(now: Date, holder: string, leaseMs: number): Promise<StoredDelivery | null>;
  /**
   * Writes an attempt's outcome, if `holder` still holds the delivery's lease: `done` deletes it,
   * `retry` writes `delivery` (its attempts, next attempt and error) and frees it. False, and
   * nothing written, when the lease had passed to another holder.
   */
  settle(delivery: StoredDelivery, holder: string, settlement: DeliverySettlement): Promise<boolean>;
  /** When the next delivery is due, or null when none is kept. */
  nextDue(): Promise<string | null>;
  /** The deliveries not yet done, oldest first. */
  pending(): Promise<StoredDelivery[]>;
}

// ── Files (proof of delivery) ──────────────────────────────────────────────────────────────────

/**
 * Opaque files by id (photos and signatures of delivered stops): the bytes only, whoever keeps
 * them says what they are. Ids are the service's own (lower-case hex), never a client's.
 */
export interface BlobStore {
  /** Writes the file, replacing one of the same id. */
  put(id: string, bytes: Uint8Array): Promise<void>;
  /** The file, or null when there is none. */
  get(id: string): Promise<Uint8Array | null>;
  /** Deletes the file; one already gone is fine. */
  remove(id: string): Promise<void>;
}

// ── The solve queue ────────────────────────────────────────────────────────────────────────────

export interface QueueStats {
  running: number;
  waiting: number;
  reserved: number;
  concurrency: number;
  capacity: number;
  /** Most solves one owner may have waiting. */
  perKey: number;
  /** Solves waiting, per owner that has any. */
  waitingByKey: Record<string, number>;
  /** How long the solve waiting longest has waited since it was accepted, in seconds; 0 when none waits. */
  oldestWaitingSeconds: number;
}

/** What a worker does with queued actions. */
export interface SolveHandlers {
  /** Runs one queued action; rejects with JobAbortedError when a shutdown interrupted it. */
  solve(actionUuid: string, signal: AbortSignal): Promise<void>;
  /** Fails an action whose runs the queue gave up on; `why` says what happened to them. */
  gaveUp(actionUuid: string, why: GaveUpReason): Promise<void>;
}

/** Why a queue gave up on an action: its workers died too often, or the service crashed too often while it ran. */
export type GaveUpReason = { cause: 'cut_short' } | { cause: 'crashed'; crashes: number };

export interface SolveQueue {
  /**
   * Stores a new pending action (ActionStore.create) and queues its solve, if its owner may have
   * one more waiting now; throws QueueFullError, having written nothing, when not. The limits hold
   * however many requests (and processes) admit at once: the check and the writes are one step.
   */
  admit(stored: StoredAction): Promise<void>;
  /** Takes a waiting action out, or stops its running solve; call it once its record has ended. */
  cancel(actionUuid: string): Promise<void>;
  stats(): Promise<QueueStats>;
  /** Starts handing queued actions to `handlers` (the roles `worker` and `all`), those accepted before a restart too. */
  work(handlers: SolveHandlers): Promise<void>;
  /** The actions whose solve runs in this process. */
  runningHere(): string[];
  /** Stops starting solves, waits up to `timeoutMs` for those running, then interrupts them (they stay pending). */
  stop(timeoutMs: number): Promise<{ leftWaiting: number; interrupted: boolean }>;
}

// ── Everything together ────────────────────────────────────────────────────────────────────────

/** What start() found, for the `started` log line. */
export interface StoreStart {
  /** The actions read into this process (the data directory reads all; PostgreSQL none, its reads go to the database). */
  actions: number;
  /** Actions accepted earlier that start() queued again (the data directory's pending ones; PostgreSQL's without a job). */
  requeued: number;
}

/** Where everything is kept, and the solve queue that goes with it (store/open.ts opens one). */
export interface Stores {
  kind: 'data_dir' | 'postgres';
  actions: ActionStore;
  projects: ProjectStore;
  sessions: SessionStore;
  records: RecordStore;
  outbox: OutboxStore;
  webhooks: WebhookStore;
  blobs: BlobStore;
  queue: SolveQueue;
  /** Makes the store ready to serve, before the service answers: what it keeps in memory is read, unfinished work found. */
  start(): Promise<StoreStart>;
  health(): Promise<StoreHealth>;
  /** Writes what is still under way and lets go (the data directory's lock, the database's connections). */
  close(): Promise<void>;
}

/** Half the capacity (at least one): two keys can always both have work waiting. */
export function defaultPerKey(capacity: number): number {
  return Math.max(1, Math.ceil(capacity / 2));
}
