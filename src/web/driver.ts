/**
 * `/drivers/{token}`: a driver's route on their phone, no sign-in. Reports are shown at once, kept
 * in this phone's storage until the service has them, and sent again when the network is back.
 */
import { byId, h } from './dom.js';
import { enqueue, isTransientStatus, parseQueue, queueKey, settle, withWaitingReports, type QueuedReport } from './driver-queue.js';
import { progressLine, routeView, type StopActions } from './driver-view.js';
import { formatDate } from './account.js';
import type { DriverRouteView, DriverStopView, ServiceError, StopStatusUpdate } from './types.js';

const RETRY_MS = 15_000;
const REFRESH_MS = 60_000;

/** What the page says for each way a link can be refused. */
const LINK_MESSAGES: Record<string, string> = {
  link_not_found: 'This link is not valid. Check that you opened the whole link your dispatcher sent.',
  link_expired: 'This link has expired. Ask your dispatcher for a new one.',
  link_revoked: 'This link was withdrawn by your dispatcher. Ask them for a new one.',
};

/** The small map of the day, loaded on its own; a phone that cannot load it (offline) keeps the list. */
function showMapOf(route: DriverRouteView): void {
  import('./driver-map.js').then((map) => map.showRouteMap(route, byId('route'))).catch(() => undefined);
}

class DriverPage {
  private route: DriverRouteView | null = null;
  private queue: QueuedReport[];
  private failing: string | null = null;
  private sending = false;

  constructor(private readonly token: string) {
    this.queue = parseQueue(localStorage.getItem(queueKey(token)));
  }

  async start(): Promise<void> {
    await this.load();
    window.addEventListener('online', () => void this.flush());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void this.load();
    });
    setInterval(() => void this.flush(), RETRY_MS);
    setInterval(() => void this.load(), REFRESH_MS);
  }

  private async load(): Promise<void> {
    const answer = await request('GET', `/drivers/${this.token}/route`);
    if (answer.ok) {
      this.route = answer.body as DriverRouteView;
      localStorage.setItem(`${queueKey(this.token)}.route`, JSON.stringify(this.route));
    } else if (answer.error && LINK_MESSAGES[answer.error.code]) {
      this.refuse(answer.error.code);
      return;
    } else if (this.route === null) {
      // Opened without network: the route as last seen on this phone, if any.
      const saved = localStorage.getItem(`${queueKey(this.token)}.route`);
      this.route = saved ? (JSON.parse(saved) as DriverRouteView) : null;
      if (this.route === null) this.showError('The route cannot be loaded: no network. It will load when the connection is back.');
    }
    this.render();
    await this.flush();
  }

  private readonly actions: StopActions = {
    done: (stop) => this.report(stop, { status: 'done' }),
    fail: (stop) => {
      this.failing = stop.stop_id;
      this.render();
    },
    saveFailure: (stop, reason) => this.report(stop, { status: 'failed', reason }),
    cancelFailure: () => {
      this.failing = null;
      this.render();
    },
    undo: (stop) => this.report(stop, { status: 'planned' }),
  };

  private report(stop: DriverStopView, update: StopStatusUpdate): void {
    const at = new Date().toISOString();
    this.queue = enqueue(this.queue, { stop_id: stop.stop_id, update: update.status === 'planned' ? update : { ...update, at } });
    this.failing = null;
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
    try {
      for (let entry = this.queue[0]; entry !== undefined; entry = this.queue[0]) {
        const answer = await request('POST', `/drivers/${this.token}/stops/${entry.stop_id}`, entry.update);
        if (!answer.ok && isTransientStatus(answer.status)) break;
        this.queue = settle(this.queue, entry);
        this.saveQueue();
        if (answer.ok) this.acceptStop(answer.body as DriverStopView);
        else if (answer.error && LINK_MESSAGES[answer.error.code]) return this.refuse(answer.error.code);
        else this.showError(`A report was not accepted: ${answer.error?.message ?? `HTTP ${answer.status}`}.`);
      }
    } finally {
      this.sending = false;
      this.render();
    }
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
    byId('route').replaceChildren(routeView(shown, this.failing, this.actions));
    showMapOf(shown);
  }

  private refuse(code: string): void {
    this.route = null;
    document.title = 'Driver link · routeplan';
    byId('driver-name').textContent = 'Your route';
    byId('route-meta').textContent = '';
    byId('progress').textContent = '';
    byId('waiting').hidden = true;
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
    return { ok: response.ok, status: response.status, body: payload, ...(payload?.error ? { error: payload.error } : {}) };
  } catch {
    return { ok: false, status: 0, body: null };
  }
}

function tokenFromPath(): string {
  return decodeURIComponent(/^\/drivers\/([^/]+)/.exec(location.pathname)?.[1] ?? '');
}

void new DriverPage(tokenFromPath()).start();
