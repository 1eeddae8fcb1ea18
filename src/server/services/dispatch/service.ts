/**
 * Dispatch (decisions.md, "Dispatch to drivers"): a project's chosen plan frozen as the day's
 * routes, a link per driver, and the drivers' reports on their stops. Changes to one project's
 * dispatch are made one at a time, so a report and a re-dispatch never overwrite each other. Every
 * read goes to the store, which other processes may have changed (PostgreSQL); only which project
 * and driver a link token belongs to is kept in memory, as that never changes.
 */
import type { z } from 'zod';
import type { dispatchRequestSchema } from '../../api-schemas/dispatch.js';
import { randomBytes } from 'node:crypto';
import type { Plan } from '../../../output/plan-types.js';
import type { ActionService } from '../actions/service.js';
import type { DispatchView, DriverPosition, DriverRouteView, DriverStopView, FailureReasonCode, ProofSetting } from '../../api-types.js';
import type { DispatchListener } from './events.js';
import { HttpError } from '../../http/replies.js';
import type { ProjectRecord } from '../projects.js';
import type { RecordStore } from '../../store/ports.js';
import { freezePlan, linkExpiryMs, type FrozenDispatch, type FrozenDriver, type FrozenStop } from './frozen.js';
import { checkPosition, isNewer, retimesRoute } from './position.js';
import type { ReportAt, Retimer } from './retimer.js';
import { applyStatus, checkStatusUpdate, isRepeated } from './status-update.js';
import { receivedProof, requireProof, type ProofFiles, type ProofKind, type StoredProof } from './proof.js';
import type { ImageType } from './proof-image.js';
import type { DispatchedDay } from './reoptimize.js';
import { dispatchView, dispatchedStop, driverRouteView, driverStop } from './views.js';
import { revisedPromise, type PromisedWindow } from './promise.js';
import { previousPromiseOf } from './customer-links.js';
import { keepNotices, newStamp, tellNotices, type PendingNotice } from './notices.js';

export interface DispatchSettings {
  graceMs: number;
  now: () => Date;
  /** The driver page's public URL for a token. */
  linkUrl: (token: string) => string;
  /** A customer's tracking page's public URL for a token. */
  trackingUrl: (token: string) => string;
  /** How far either side of the planned arrival customers are promised (`--eta-margin`), in seconds. */
  etaMarginS: number;
  log: (event: Record<string, unknown>) => void;
  /** Re-times a driver's remaining stops after each report (the live estimates); none: no estimates. */
  retimer?: Retimer;
  /** The project's `settings.proof` now (a change after dispatch counts at the next Done). */
  proofSetting: (owner: string, projectId: string) => Promise<ProofSetting>;
}

/** What POST /v1.0/project/{id}/dispatch asks for (api-schemas/dispatch.ts). */
export type DispatchRequest = z.infer<typeof dispatchRequestSchema>;

interface TokenEntry {
  projectId: string;
  driverId: string;
}

/** 24 random bytes: 192 bits, as base64url (32 characters) in the driver's URL. */
function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export class DispatchService {
  private readonly tokens = new Map<string, TokenEntry>();

  constructor(
    private readonly store: RecordStore,
    private readonly actions: ActionService,
    private readonly listener: DispatchListener,
    private readonly settings: DispatchSettings,
    /** Where proof of delivery files are kept. */
    private readonly proofs: ProofFiles,
  ) {}

  /** Learns every link token of every dispatch (again, when a token is not known here yet). */
  async recover(): Promise<number> {
    const { records, unreadable } = await this.store.readAll<FrozenDispatch>('dispatches');
    for (const bad of unreadable) this.settings.log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const dispatch of records) this.rememberTokens(dispatch);
    return records.length;
  }

  /** The project's dispatch as its dispatcher sees it, or null before the first dispatch. */
  async viewOf(projectId: string): Promise<DispatchView | null> {
    const dispatch = await this.load(projectId);
    return dispatch ? dispatchView(dispatch, this.settings.linkUrl, this.settings.trackingUrl) : null;
  }

  /** Freezes the plan of `request.actionUuid` (default: the latest finished optimization) as the day's routes. */
  dispatch(owner: string, project: ProjectRecord, request: DispatchRequest): Promise<{ view: DispatchView; created: boolean }> {
    return this.store.exclusively('dispatches', project.id, async () => {
      const previous = await this.load(project.id);
      if (previous && request.redispatch !== true) {
        throw new HttpError(
          409,
          'already_dispatched',
          'the project is already dispatched; send {"redispatch": true} to replace its routes',
        );
      }
      const { actionUuid, plan } = await this.chosenPlan(owner, project, request.actionUuid);
      const now = this.settings.now();
      const expiresAt = this.expiryOf(project.date, plan, now);
      const frame = { actionUuid, dispatchedAt: now.toISOString(), expiresAt, newToken, etaMarginS: this.settings.etaMarginS };
      const dispatch = freezePlan(owner, project, plan, frame, previous);
      keepNotices(dispatch, previous?.notices ?? []);
      keepNotices(dispatch, [dispatchedNotice(dispatch, previous, now)]);
      await this.store.write('dispatch-plans', project.id, plan);
      await this.save(dispatch);
      await this.discardProofs(droppedStops(previous, dispatch));
      this.settings.log({ event: 'dispatched', project_id: project.id, action_id: actionUuid, redispatch: previous !== null });
      await this.tellNotices(dispatch);
      return { view: dispatchView(dispatch, this.settings.linkUrl, this.settings.trackingUrl), created: previous === null };
    });
  }

  /** The service's clock, as the dispatch reads it (tests fix it through the settings). */
  now(): Date {
    return this.settings.now();
  }

  /** The dispatched day as it stands (the record with its reports, and the plan dispatched), for re-optimizing it. */
  async dayOf(projectId: string): Promise<DispatchedDay> {
    const dispatch = await this.load(projectId);
    const plan = dispatch ? await this.store.read<Plan>('dispatch-plans', projectId) : null;
    if (!dispatch || !plan) {
      throw new HttpError(
        409,
        'not_dispatched',
        `project ${projectId} is not dispatched; Re-optimize plans the rest of a dispatched day: use Optimize`,
      );
    }
    return { dispatch, plan };
  }

  /** The frozen plan, exactly as it was dispatched. */
  async frozenPlan(projectId: string): Promise<Plan> {
    await this.dispatchOf(projectId);
    const plan = await this.store.read<Plan>('dispatch-plans', projectId);
    if (plan === null) throw notDispatched(projectId);
    return plan;
  }

  /** Withdraws a driver's link: it answers 410 link_revoked from now on. */
  revoke(projectId: string, driverId: string): Promise<DispatchView> {
    return this.changeDriver(projectId, driverId, (driver) => {
      if (driver.token !== null) driver.retired_tokens.push(driver.token);
      driver.token = null;
    });
  }

  /** A new link for a driver (the old one, if any, answers 410 link_revoked). */
  renewLink(projectId: string, driverId: string): Promise<DispatchView> {
    return this.changeDriver(projectId, driverId, (driver) => {
      if (driver.token !== null) driver.retired_tokens.push(driver.token);
      driver.token = newToken();
    });
  }

  /** What a driver link reads: its driver's route only. */
  async routeOf(token: string): Promise<DriverRouteView> {
    const { dispatch, driver } = await this.openLink(token);
    return driverRouteView(dispatch, driver, await this.settings.proofSetting(dispatch.owner, dispatch.project.id));
  }

  /** A proof file of a stop, for its project's owner; null when the stop has none. */
  async proofFile(projectId: string, stopId: string, kind: ProofKind): Promise<{ bytes: Uint8Array; type: ImageType } | null> {
    const stop = (await this.dispatchOf(projectId)).stops.find((candidate) => candidate.stop_id === stopId);
    return this.proofs.read(stop?.stored_proof, kind);
  }

  /** A proof file of one of the link's own stops; null when the stop has none or is another driver's. */
  async driverProofFile(token: string, stopId: string, kind: ProofKind): Promise<{ bytes: Uint8Array; type: ImageType } | null> {
    const { dispatch, driver } = await this.openLink(token);
    const stop = dispatch.stops.find((candidate) => candidate.stop_id === stopId && candidate.driver_id === driver.driver_id);
    return this.proofs.read(stop?.stored_proof, kind);
  }

  /**
   * Retention of proof files: those of dispatches that expired more than `retentionMs` before
   * `now` are deleted (the stops keep their status, and say no more than that). Returns how many stops lost theirs.
   */
  async sweepProofs(now: Date, retentionMs: number): Promise<number> {
    let swept = 0;
    const { records } = await this.store.readAll<FrozenDispatch>('dispatches');
    for (const { project, expires_at } of records) {
      if (Date.parse(expires_at) + retentionMs > now.getTime()) continue;
      swept += await this.store.exclusively('dispatches', project.id, async () => {
        const dispatch = await this.load(project.id);
        const kept = dispatch?.stops.filter((stop) => stop.stored_proof !== undefined) ?? [];
        if (!dispatch || kept.length === 0) return 0;
        await this.discardProofs(kept.map((stop) => stop.stored_proof));
        for (const stop of kept) delete stop.stored_proof;
        await this.save(dispatch);
        return kept.length;
      });
    }
    return swept;
  }

  /**
   * Deletes the project's dispatch (issue 27, personal data): the proof files first, then the frozen
   * plan, then the record with its reports and positions, so that a deletion cut short and tried
   * again still finds what is left. Its driver and tracking links answer 404 from then on.
   */
  erase(projectId: string): Promise<void> {
    return this.store.exclusively('dispatches', projectId, async () => {
      const dispatch = await this.load(projectId);
      for (const stop of dispatch?.stops ?? []) await this.proofs.discard(stop.stored_proof);
      await this.store.remove('dispatch-plans', projectId);
      await this.store.remove('dispatches', projectId);
      for (const [token, entry] of this.tokens) if (entry.projectId === projectId) this.tokens.delete(token);
    });
  }

  /** A driver's report on one of their stops (with its proof, for Done); the same report again changes nothing. */
  async report(token: string, stopId: string, body: unknown): Promise<DriverStopView> {
    return this.store.exclusively('dispatches', (await this.openLink(token)).dispatch.project.id, async () => {
      const { dispatch, driver } = await this.openLink(token);
      const driverId = driver.driver_id;
      const stop = dispatch.stops.find((candidate) => candidate.stop_id === stopId && candidate.driver_id === driverId);
      if (!stop) throw new HttpError(404, 'stop_not_found', 'this stop is not on your route');
      const update = checkStatusUpdate(body, this.settings.now());
      if (isRepeated(stop, update)) return driverStop(stop, driver.token);
      const received = update.status === 'done' ? receivedProof(body) : null;
      if (received) requireProof(await this.settings.proofSetting(dispatch.owner, dispatch.project.id), received);
      const becameEnded = update.status !== 'planned' && stop.status !== update.status;
      const before = stop.stored_proof;
      applyStatus(stop, update);
      const kept = received ? await this.proofs.keep(received) : {};
      if (Object.keys(kept).length > 0) stop.stored_proof = kept;
      else delete stop.stored_proof;
      const moved = update.status === 'planned' ? [] : await this.retimeFrom(dispatch, driver, reportPlace(stop, update.at, driver));
      const now = this.settings.now();
      if (becameEnded) keepNotices(dispatch, [reportedNotice(dispatch, stop, driverId, update.at ?? now.toISOString(), now)]);
      keepNotices(dispatch, etaNotices(dispatch, moved, now));
      await this.save(dispatch).catch(async (error: unknown) => {
        await this.proofs.discard(kept).catch(() => undefined);
        throw error;
      });
      await this.discardProofs([before]);
      await this.tellNotices(dispatch);
      return driverStop(stop, driver.token);
    });
  }

  /**
   * A driver's shared position, kept for the dispatcher (the newest only: an older one changes
   * nothing) and re-timing their remaining stops at most once per RETIME_EVERY_MS.
   */
  async sharePosition(token: string, body: unknown): Promise<{ position: DriverPosition; kept: boolean }> {
    return this.store.exclusively('dispatches', (await this.openLink(token)).dispatch.project.id, async () => {
      const { dispatch, driver } = await this.openLink(token);
      const position = checkPosition(body, this.settings.now());
      if (!isNewer(position, driver.position)) return { position: driver.position!, kept: false };
      driver.position = position;
      const from = { lat: position.lat, lng: position.lng, at: new Date(position.at) };
      const moved = retimesRoute(position, driver.retimed_at) ? await this.retimeFrom(dispatch, driver, from) : [];
      keepNotices(dispatch, etaNotices(dispatch, moved, this.settings.now()));
      await this.save(dispatch);
      await this.tellNotices(dispatch);
      return { position, kept: true };
    });
  }

  /** The driver's remaining stops re-timed from a report; a failure to time them is logged, never the report's. */
  private async retimeFrom(dispatch: FrozenDispatch, driver: FrozenDriver, from: ReportAt): Promise<FrozenStop[]> {
    const retimer = this.settings.retimer;
    if (retimer === undefined) return [];
    try {
      const moved = await retimer.retime(dispatch, driver.driver_id, from);
      driver.retimed_at = from.at.toISOString();
      return moved;
    } catch (error) {
      this.settings.log({
        event: 'eta_failed',
        project_id: dispatch.project.id,
        driver_id: driver.driver_id,
        reason: (error as Error).message,
      });
      return [];
    }
  }

  /**
   * Tells every dispatch's events that a failure or the end of a process left untold (notices.ts):
   * at the start and at each retention sweep. Answers how many were told.
   */
  async tellUntold(): Promise<number> {
    const { records } = await this.store.readAll<FrozenDispatch>('dispatches');
    let told = 0;
    for (const { project, notices } of records) {
      if (notices === undefined || notices.length === 0) continue;
      told += await this.store.exclusively('dispatches', project.id, async () => {
        const dispatch = await this.load(project.id);
        const before = dispatch?.notices?.length ?? 0;
        if (!dispatch || before === 0) return 0;
        await this.tellNotices(dispatch);
        return before - (dispatch.notices?.length ?? 0);
      });
    }
    return told;
  }

  /**
   * Records a revised promise for a stop whose estimate moved to `eta_s`, when promise.ts says one
   * is due (checked here, in the project's turn, against the record as stored), written with its
   * promiseRevised event, then told; answers whether it revised.
   */
  revisePromise(projectId: string, stopId: string, eta_s: number): Promise<boolean> {
    return this.store.exclusively('dispatches', projectId, async () => {
      const dispatch = await this.load(projectId);
      const stop = dispatch?.stops.find((candidate) => candidate.stop_id === stopId);
      const now = this.settings.now();
      const promised = stop ? revisedPromise(stop, eta_s, now, this.settings.etaMarginS) : null;
      if (!dispatch || !stop?.promised || !promised) return false;
      const previous = stop.promised;
      stop.promised = promised;
      stop.revised_at = now.toISOString();
      keepNotices(dispatch, [revisedNotice(dispatch, stop, previous, now)]);
      await this.save(dispatch);
      await this.tellNotices(dispatch);
      return true;
    });
  }

  private async chosenPlan(
    owner: string,
    project: ProjectRecord,
    actionUuid: string | undefined,
  ): Promise<{ actionUuid: string; plan: Plan }> {
    const projectId = project.id;
    const chosen = actionUuid ?? (await this.latestFinished(projectId));
    if (chosen === undefined)
      throw new HttpError(409, 'no_plan', 'the project has no finished optimization to dispatch; press Optimize first');
    const action = await this.actions.get(owner, chosen);
    if (!action || action.project_id !== projectId) {
      throw new HttpError(404, 'not_found', `no optimization ${chosen} of project ${projectId}`, [
        { path: 'actionUuid', message: 'not an optimization of this project' },
      ]);
    }
    if (action.status !== 'finished' || !action.solution) {
      throw new HttpError(409, 'no_plan', `optimization ${chosen} is ${action.status}; only a finished one can be dispatched`);
    }
    // A plan names stops and drivers by their place in the project it was made for: after a change they may be others.
    if ((action.project_version ?? 1) !== (project.version ?? 1)) {
      throw new HttpError(
        409,
        'plan_outdated',
        `optimization ${chosen} was made for version ${action.project_version ?? 1} of the project, which has changed since (now version ${project.version ?? 1}); optimize it again`,
      );
    }
    return { actionUuid: chosen, plan: action.solution };
  }

  private async latestFinished(projectId: string): Promise<string | undefined> {
    return (await this.actions.optimizations.of(projectId)).find((summary) => summary.status === 'finished')?.actionUuid;
  }

  /** The end of the project's date plus the grace, and never sooner than the grace after dispatching (a late or past date). */
  private expiryOf(date: string, plan: Plan, now: Date): string {
    const byDate = linkExpiryMs(date, plan, this.settings.graceMs);
    const byDispatch = now.getTime() + this.settings.graceMs;
    return new Date(Number.isFinite(byDate) ? Math.max(byDate, byDispatch) : byDispatch).toISOString();
  }

  private changeDriver(projectId: string, driverId: string, change: (driver: FrozenDriver) => void): Promise<DispatchView> {
    return this.store.exclusively('dispatches', projectId, async () => {
      const dispatch = await this.dispatchOf(projectId);
      const driver = dispatch.drivers.find((candidate) => candidate.driver_id === driverId);
      if (!driver) throw new HttpError(404, 'not_found', `no driver ${driverId} in the dispatch of project ${projectId}`);
      change(driver);
      await this.save(dispatch);
      return dispatchView(dispatch, this.settings.linkUrl, this.settings.trackingUrl);
    });
  }

  private async openLink(token: string): Promise<{ dispatch: FrozenDispatch; driver: FrozenDriver }> {
    const entry = await this.linkOf(token);
    const dispatch = entry ? await this.load(entry.projectId) : null;
    const driver = dispatch?.drivers.find((candidate) => candidate.driver_id === entry!.driverId);
    if (!dispatch || !driver)
      throw new HttpError(404, 'link_not_found', 'this driver link is not valid; ask your dispatcher for the right one');
    if (driver.token !== token) {
      throw new HttpError(410, 'link_revoked', 'this driver link was withdrawn by the dispatcher; ask for a new one');
    }
    if (this.settings.now().getTime() > Date.parse(dispatch.expires_at)) {
      throw new HttpError(410, 'link_expired', `this driver link expired at ${dispatch.expires_at}; ask your dispatcher for a new one`);
    }
    return { dispatch, driver };
  }

  private async dispatchOf(projectId: string): Promise<FrozenDispatch> {
    const dispatch = await this.load(projectId);
    if (!dispatch) throw notDispatched(projectId);
    return dispatch;
  }

  /** The dispatch as stored now: a fresh copy each time, so a change that fails to be written leaves nothing behind. */
  private load(projectId: string): Promise<FrozenDispatch | null> {
    return this.store.read<FrozenDispatch>('dispatches', projectId);
  }

  /** The project and driver of a link token; a token made by another process is looked up once. */
  private async linkOf(token: string): Promise<TokenEntry | undefined> {
    if (!this.tokens.has(token)) await this.recover();
    return this.tokens.get(token);
  }

  private async save(dispatch: FrozenDispatch): Promise<void> {
    await this.store.write('dispatches', dispatch.project.id, dispatch);
    this.rememberTokens(dispatch);
  }

  private rememberTokens(dispatch: FrozenDispatch): void {
    for (const driver of dispatch.drivers) {
      for (const token of [...driver.retired_tokens, ...(driver.token !== null ? [driver.token] : [])]) {
        this.tokens.set(token, { projectId: dispatch.project.id, driverId: driver.driver_id });
      }
    }
  }

  /**
   * Deletes proof files no stop holds any more. The report stands either way: a file that cannot be
   * deleted now is logged (with its reason) and left behind, never answered to the driver.
   */
  private async discardProofs(proofs: (StoredProof | undefined)[]): Promise<void> {
    for (const proof of proofs) {
      await this.proofs.discard(proof).catch((error: unknown) => {
        this.settings.log({ event: 'proof_delete_failed', reason: (error as Error).message });
      });
    }
  }

  /**
   * Tells the dispatch's untold events, in the project's turn, after the change that made them is
   * written, and writes it without those told. A failure is logged, never answered to the
   * dispatcher or the driver: what is left untold is told again (tellUntold, the next change).
   */
  private async tellNotices(dispatch: FrozenDispatch): Promise<void> {
    if (!(await tellNotices(dispatch, this.listener, this.settings.log))) return;
    await this.save(dispatch).catch((error: unknown) => {
      this.settings.log({ event: 'dispatch_events_not_cleared', project_id: dispatch.project.id, reason: (error as Error).message });
    });
  }
}

/** The dispatch as an event: every stop of its routes, with what its customer was promised before a re-dispatch. */
function dispatchedNotice(dispatch: FrozenDispatch, previous: FrozenDispatch | null, now: Date): PendingNotice {
  const stops = dispatch.stops.map((stop) => ({ ...dispatchedStop(stop), status: stop.status, ...previousPromiseOf(stop, previous) }));
  const event = {
    notice: newStamp(now),
    owner: dispatch.owner,
    project: dispatch.project,
    dispatched_at: dispatch.dispatched_at,
    action_id: dispatch.actionUuid,
    redispatch: previous !== null,
    stops,
  };
  return { kind: 'dispatched', event };
}

/** A stop that became done or failed, reported by its driver as of `at`. */
function reportedNotice(dispatch: FrozenDispatch, stop: FrozenStop, driverId: string, at: string, now: Date): PendingNotice {
  const { owner, project, dispatched_at } = dispatch;
  const event = { notice: newStamp(now), owner, project, dispatched_at, stop: dispatchedStop(stop), at, ...reportOf(stop, driverId) };
  return { kind: 'stopReported', event };
}

/** The new estimates of the stops a re-timing moved (none when it moved none). */
function etaNotices(dispatch: FrozenDispatch, moved: FrozenStop[], now: Date): PendingNotice[] {
  if (moved.length === 0) return [];
  const stops = moved.map((stop) => ({ stop: dispatchedStop(stop), eta_s: stop.eta_s!, late: stop.late === true }));
  return [{ kind: 'etaChanged', event: { notice: newStamp(now), owner: dispatch.owner, project: dispatch.project, stops } }];
}

/** A stop's promise revised from `previous` to its new one, for the revised message. */
function revisedNotice(dispatch: FrozenDispatch, stop: FrozenStop, previous: PromisedWindow, now: Date): PendingNotice {
  const { owner, project } = dispatch;
  const event = { notice: newStamp(now), owner, project, stop: dispatchedStop(stop), previous, revised_at: stop.revised_at! };
  return { kind: 'promiseRevised', event };
}

/**
 * Where a done or failed report leaves the driver: at the stop when they tapped (a done tap ends
 * its service), unless a position they shared since is newer.
 */
function reportPlace(stop: FrozenStop, at: string | null, driver: FrozenDriver): ReportAt {
  const tapped = at !== null ? new Date(at) : new Date();
  const position = driver.position;
  if (position && Date.parse(position.at) > tapped.getTime()) return { lat: position.lat, lng: position.lng, at: new Date(position.at) };
  return { lat: stop.lat, lng: stop.lng, at: tapped };
}

/** What a done or failed report adds for the webhooks: the driver, and a failure's reason code (never its text). */
function reportOf(stop: FrozenStop, driverId: string): { status: 'done' | 'failed'; driver_id: string; reason_code?: FailureReasonCode } {
  const status = stop.status === 'done' ? 'done' : 'failed';
  return {
    status,
    driver_id: driverId,
    ...(status === 'failed' && stop.reason_code !== undefined ? { reason_code: stop.reason_code } : {}),
  };
}

/** The proofs of stops a re-dispatch left out (their reports go with them). */
function droppedStops(previous: FrozenDispatch | null, next: FrozenDispatch): (StoredProof | undefined)[] {
  const kept = new Set(next.stops.map((stop) => stop.stop_id));
  return (previous?.stops ?? []).filter((stop) => !kept.has(stop.stop_id)).map((stop) => stop.stored_proof);
}

function notDispatched(projectId: string): HttpError {
  return new HttpError(404, 'not_dispatched', `project ${projectId} is not dispatched yet`);
}
