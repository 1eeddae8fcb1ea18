/**
 * `/drivers/{token}`: a driver's route on their phone, no sign-in. Reports are shown at once, kept
 * in this phone's storage until the service has them (a Done's photo and signature in IndexedDB),
 * and sent again when the network is back. After one load the page opens without network too.
 */
import { byId, h } from './dom.js';
import {
  enqueue,
  isTransientStatus,
  parseQueue,
  proofKeyOf,
  queueKey,
  settle,
  withWaitingReports,
  type QueuedReport,
} from './driver-queue.js';
import { progressLine, routeView, tapTime, type StopActions } from './driver-view.js';
import { formatDate } from './account.js';
import { LocationShare, type SharedPosition } from './location-share.js';
import { keepPageOffline, offlineNoteOf } from './driver-offline.js';
import { failureStep } from './failure-step.js';
import { proofStep, type DoneProof } from './proof-step.js';
import { deleteProofBlobs, getProofBlobs, putProofBlobs } from './proof-files-db.js';
import { dataUrlOf } from './photo-downscale.js';
import type { DriverRouteView, DriverStopView, ServiceError, StopStatusUpdate } from './types.js';

const RETRY_MS = 15_000;
const REFRESH_MS = 60_000;

/** What the page says for each way a link can be refused. */
const LINK_MESSAGES: Record<string, string> = {
  link_not_found: 'This link is not valid. Check that you opened the whole link your dispatcher sent.',
  link_expired: 'This link has expired. Ask your dispatcher for a new one.',
  link_revoked: 'This link was withdrawn by your dispatcher. Ask them for a new one.',
};

/** The service's limit on wrong links from one network (429): the page tries again each minute by itself. */
const LIMITED_MESSAGE = 'Too many wrong links were opened from this network. Your route will load by itself in a minute or two.';
/** The small map of the day, loaded on its own; a phone that cannot load it (offline) keeps the list. */
function showMapOf(route: DriverRouteView): void {
  import('./driver-map.js').then((map) => map.showRouteMap(route, byId('route'))).catch(() => undefined);
}

class DriverPage {
  private route: DriverRouteView | null = null;
  private queue: QueuedReport[];
  /** The Done or Failed step open on a stop: one element, kept across renders. */
  private step: { stopId: string; element: HTMLElement } | null = null;
  private sending = false;
  private readonly share: LocationShare;

  constructor(private readonly token: string) {
    this.queue = parseQueue(localStorage.getItem(queueKey(token)));
    this.share = new LocationShare(
      token,
      (position) => this.sendPosition(position),
      () => this.render(),
    );
  }

  async start(): Promise<void> {
    await this.load();
    if (this.route !== null) this.share.start();
    keepPageOffline(() => this.showOfflineReady());
    window.addEventListener('online', () => void this.flush());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void this.load();
    });
    setInterval(() => void this.flush(), RETRY_MS);
    setInterval(() => void this.load(), REFRESH_MS);
  }

  private async load(): Promise<void> {
    const answer = await request('GET', `/drivers/${this.token}/route`);
    this.showOfflineNote(answer.headers ? offlineNoteOf(answer.headers) : null);
    if (answer.ok) {
      this.route = answer.body as DriverRouteView;
      localStorage.setItem(`${queueKey(this.token)}.route`, JSON.stringify(this.route));
      localStorage.setItem(`${queueKey(this.token)}.route-at`, new Date().toISOString());
    } else if (answer.error && LINK_MESSAGES[answer.error.code]) {
      this.refuse(answer.error.code);
      return;
    } else if (this.route === null) {
      // Opened without network: the route as last seen on this phone, if any.
      const saved = localStorage.getItem(`${queueKey(this.token)}.route`);
      this.route = saved ? (JSON.parse(saved) as DriverRouteView) : null;
      const savedAt = localStorage.getItem(`${queueKey(this.token)}.route-at`);
      if (this.route !== null) this.showOfflineNote(`Offline: showing the route as of ${savedAt ? tapTime(savedAt) : 'the last load'}.`);
      if (this.route === null)
        this.showError(
          answer.status === 429 ? LIMITED_MESSAGE : 'The route cannot be loaded: no network. It will load when the connection is back.',
        );
    }
    this.render();
    await this.flush();
  }

  private readonly actions: StopActions = {
    done: (stop) =>
      this.open(
        stop,
        proofStep(stop, this.route?.proof_required ?? 'none', {
          save: (proof) => void this.reportDone(stop, proof),
          cancel: () => this.close(),
        }),
      ),
    fail: (stop) =>
      this.open(
        stop,
        failureStep(stop, { save: (failure) => this.report(stop, { status: 'failed', ...failure }), cancel: () => this.close() }),
      ),
    undo: (stop) => this.report(stop, { status: 'planned' }),
    stepOf: (stop) => (this.step?.stopId === stop.stop_id ? this.step.element : null),
  };

  private open(stop: DriverStopView, element: HTMLElement): void {
    this.step = { stopId: stop.stop_id, element };
    this.render();
  }

  /** Closes the open step; the focus goes back to the stop's first button, where the driver left it. */
  private close(): void {
    const stopId = this.step?.stopId;
    this.step = null;
    this.render();
    if (stopId) document.querySelector<HTMLElement>(`.stop-card[data-stop-id="${CSS.escape(stopId)}"] .stop-actions button`)?.focus();
  }

  /** A Done with its proof: the files wait in IndexedDB until the service has the report. */
  private async reportDone(stop: DriverStopView, proof: DoneProof): Promise<void> {
    const at = new Date().toISOString();
    const { photo, signature, recipient } = proof;
    let proofKey: string | undefined;
    if (photo || signature) {
      proofKey = proofKeyOf(this.token, stop.stop_id, at);
      await putProofBlobs(proofKey, { ...(photo ? { photo } : {}), ...(signature ? { signature } : {}) });
    }
    this.report(stop, { status: 'done', at, ...(recipient ? { recipient } : {}) }, proofKey);
  }

  private report(stop: DriverStopView, update: StopStatusUpdate, proofKey?: string): void {
    const at = update.at ?? new Date().toISOString();
    // A newer tap on the same stop replaces a waiting one, and its files.
    for (const replaced of this.queue.filter((entry) => entry.stop_id === stop.stop_id && entry.proof_key)) {
      void deleteProofBlobs(replaced.proof_key!);
    }
    this.queue = enqueue(this.queue, {
      stop_id: stop.stop_id,
      update: update.status === 'planned' ? update : { ...update, at },
      ...(proofKey ? { proof_key: proofKey } : {}),
    });
    this.step = null;
    this.saveQueue();
    this.render();
    void this.flush();
  }

  /**
   * Sends the waiting reports in the order they were made, including those made while one was on
   * its way (they must not wait for the next retry); stops at the first that must wait for the network.
   */
  private async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    let accepted = false;
    try {
      for (let entry = this.queue[0]; entry !== undefined; entry = this.queue[0]) {
        const answer = await request('POST', `/drivers/${this.token}/stops/${entry.stop_id}`, await withProofFiles(entry));
        if (!answer.ok && isTransientStatus(answer.status)) break;
        this.queue = settle(this.queue, entry);
        this.saveQueue();
        accepted ||= answer.ok;
        if (entry.proof_key) await deleteProofBlobs(entry.proof_key);
        if (answer.ok) this.acceptStop(answer.body as DriverStopView);
        else if (answer.error && LINK_MESSAGES[answer.error.code]) return this.refuse(answer.error.code);
        else this.showError(`A report was not accepted: ${answer.error?.message ?? `HTTP ${answer.status}`}.`);
      }
    } finally {
      this.sending = false;
      this.render();
    }
    // A report re-times the rest of the route on the service: the other stops' new times.
    if (accepted) await this.load();
  }

  /** A position the service kept re-timed the rest of the route: show the new times. */
  private async sendPosition(position: SharedPosition): Promise<void> {
    const answer = await request('POST', `/drivers/${this.token}/position`, position);
    if (answer.ok && (answer.body as { kept?: boolean } | null)?.kept === true) await this.load();
    else if (answer.error && LINK_MESSAGES[answer.error.code]) this.refuse(answer.error.code);
  }

  private acceptStop(stop: DriverStopView): void {
    if (!this.route) return;
    this.route = { ...this.route, stops: this.route.stops.map((entry) => (entry.stop_id === stop.stop_id ? stop : entry)) };
  }

  private saveQueue(): void {
    if (this.queue.length === 0) localStorage.removeItem(queueKey(this.token));
    else localStorage.setItem(queueKey(this.token), JSON.stringify(this.queue));
  }

  private render(): void {
    if (this.route === null) return;
    const shown = withWaitingReports(this.route, this.queue);
    document.title = `${shown.driver.name} · ${shown.project.name}`;
    byId('driver-name').textContent = `${shown.driver.name}’s route`;
    byId('route-meta').textContent = `${shown.project.name} · ${formatDate(shown.project.date)}`;
    byId('progress').textContent = progressLine(shown);
    const waiting = byId('waiting');
    waiting.hidden = this.queue.length === 0;
    waiting.textContent = `Waiting for network: ${this.queue.length} ${this.queue.length === 1 ? 'change' : 'changes'} not sent yet.`;
    byId('route').replaceChildren(routeView(shown, this.actions));
    byId('share').replaceChildren(this.share.view());
    showMapOf(shown);
  }

  private showOfflineNote(note: string | null): void {
    const element = byId('offline-note');
    element.textContent = note ?? '';
    element.hidden = note === null;
  }

  private showOfflineReady(): void {
    byId('offline-ready').hidden = false;
  }

  private refuse(code: string): void {
    this.route = null;
    this.share.pause();
    document.title = 'Driver link · routeplan';
    byId('driver-name').textContent = 'Your route';
    byId('route-meta').textContent = '';
    byId('progress').textContent = '';
    byId('waiting').hidden = true;
    byId('share').replaceChildren();
    byId('route').replaceChildren(h('p', { class: 'alert', role: 'alert' }, LINK_MESSAGES[code]));
  }

  private showError(message: string): void {
    const box = byId('page-error');
    box.textContent = message;
    box.hidden = false;
  }
}

interface Answer {
  ok: boolean;
  /** 0 when there was no answer (no network). */
  status: number;
  body: unknown;
  error?: ServiceError;
  headers?: Headers;
}

/** The report as sent: a Done's waiting files read back as data: URLs (none if they are gone). */
async function withProofFiles(entry: QueuedReport): Promise<unknown> {
  const files = entry.proof_key ? await getProofBlobs(entry.proof_key) : null;
  if (!files) return entry.update;
  return {
    ...entry.update,
    ...(files.photo ? { photo: await dataUrlOf(files.photo) } : {}),
    ...(files.signature ? { signature: await dataUrlOf(files.signature) } : {}),
  };
}

async function request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  try {
    const response = await fetch(path, {
      method,
      cache: 'no-store',
      headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const payload = (await response.json().catch(() => null)) as { error?: ServiceError } | null;
    const answer = { ok: response.ok, status: response.status, body: payload, headers: response.headers };
    return payload?.error ? { ...answer, error: payload.error } : answer;
  } catch {
    return { ok: false, status: 0, body: null };
  }
}

function tokenFromPath(): string {
  return decodeURIComponent(/^\/drivers\/([^/]+)/.exec(location.pathname)?.[1] ?? '');
}

void new DriverPage(tokenFromPath()).start();
