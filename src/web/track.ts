/**
 * `/track/{token}`: a customer follows their own delivery, no sign-in. The page reads the stop's
 * status every minute (and when the phone shows it again); without network it keeps what it showed.
 */
import { byId, h } from './dom.js';
import { formatDate } from './account.js';
import { momentOf, trackingCard } from './track-view.js';
import type { ServiceError, TrackingView } from './types.js';

const REFRESH_MS = 60_000;

/** What the page says for each way a link can be refused. */
const LINK_MESSAGES: Record<string, string> = {
  link_not_found: 'This tracking link is not valid. Check that you opened the whole link from your message.',
  link_expired: 'This tracking link has expired: the delivery day is over.',
  link_revoked: 'This delivery is no longer planned on this day. The sender will tell you more.',
};

class TrackPage {
  private shown = false;
  private refused = false;

  constructor(private readonly token: string) {}

  start(): void {
    void this.load();
    setInterval(() => void this.load(), REFRESH_MS);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void this.load();
    });
  }

  private async load(): Promise<void> {
    if (this.refused) return;
    const answer = await fetchStatus(this.token);
    if ('view' in answer) this.show(answer.view);
    else if (answer.error && LINK_MESSAGES[answer.error.code]) this.refuse(answer.error.code);
    else this.stale();
  }

  private show(view: TrackingView): void {
    this.shown = true;
    document.title = `${view.name} · delivery from ${view.project.name}`;
    byId('track-from').textContent = `Delivery from ${view.project.name}`;
    byId('track-title').textContent = view.name;
    byId('track-meta').textContent = formatDate(view.project.date);
    byId('track').replaceChildren(trackingCard(view));
    byId('track-updated').textContent = `Updated at ${momentOf(new Date().toISOString())}. This page updates itself every minute.`;
  }

  /** No answer: what was shown stays, and the page says it is not fresh. */
  private stale(): void {
    const message = 'Cannot reach the service: check your connection. The page tries again every minute.';
    if (!this.shown) byId('track').replaceChildren(h('p', { class: 'alert', role: 'alert' }, message));
    else byId('track-updated').textContent = message;
  }

  private refuse(code: string): void {
    this.refused = true;
    document.title = 'Delivery tracking · routeplan';
    byId('track-from').textContent = '';
    byId('track-title').textContent = 'Your delivery';
    byId('track-meta').textContent = '';
    byId('track-updated').textContent = '';
    byId('track').replaceChildren(h('p', { class: 'alert', role: 'alert' }, LINK_MESSAGES[code]));
  }
}

async function fetchStatus(token: string): Promise<{ view: TrackingView } | { error?: ServiceError }> {
  try {
    const response = await fetch(`/track/${encodeURIComponent(token)}/status`, {
      cache: 'no-store',
      headers: { accept: 'application/json' },
    });
    const body = (await response.json().catch(() => null)) as (TrackingView & { error?: ServiceError }) | null;
    if (response.ok && body !== null) return { view: body };
    return body?.error ? { error: body.error } : {};
  } catch {
    return {};
  }
}

function tokenFromPath(): string {
  return decodeURIComponent(/^\/track\/([^/]+)/.exec(location.pathname)?.[1] ?? '');
}

new TrackPage(tokenFromPath()).start();
