/**
 * Webhooks (decisions.md, "The live day"; issue 28): with `--webhook-url` (one or more) and
 * `--webhook-secret`, each event — an optimization finished or failed, a project dispatched, a stop
 * done or failed, a stop's estimate changed — is recorded in the store in the turn of the change it
 * reports (before that change is answered), once per URL, and delivered from there by sender.ts:
 * signed, at least once, retried for 24 h. Without a URL nothing is recorded.
 */
import { createHash } from 'node:crypto';
import type { ActionStore, StoredAction, StoredDelivery, WebhookStore } from '../../store/ports.js';
import type { DispatchListener } from '../dispatch/events.js';
import { noMetrics, type ServiceMetrics } from '../../metrics.js';
import { actionEnded, etasChanged, projectDispatched, stopReported, type WebhookEvent } from './events.js';
import { postEvent } from './post.js';
import { RETRY_SCHEDULE, type RetrySchedule } from './schedule.js';
import { POLL_MS, WebhookSender, type Deliver } from './sender.js';
import { reportingEndings, type ReportingEndings } from './action-endings.js';

export { WEBHOOK_EVENT_TYPES, type WebhookEvent, type WebhookEventType } from './events.js';
export { verifySignature, signatureOf, SIGNATURE_HEADER, EVENT_ID_HEADER } from './signature.js';
export { RETRY_SCHEDULE, type RetrySchedule } from './schedule.js';

export interface WebhookSettings {
  /** http(s) URLs, each of which receives every event. */
  urls: string[];
  /** The HMAC-SHA256 key of the signatures. */
  secret: string;
}

export interface WebhookOptions {
  now?: () => Date;
  /** Parts of the retry schedule replaced (tests: short waits, a short window). */
  schedule?: Partial<RetrySchedule>;
  pollMs?: number;
  random?: () => number;
  metrics?: ServiceMetrics;
  /** The User-Agent of the POSTs (`routeplan/<version>`). */
  userAgent?: string;
}

type Log = (event: Record<string, unknown>) => void;

export interface Webhooks {
  /** What the dispatch tells: recorded as events before its change is answered. */
  listener: DispatchListener;
  /** The action store, whose endings (written ones only) are recorded as events too. */
  watchActions(store: ActionStore): ActionStore;
  /** Records the events of the watched store's endings left untold (action-endings.ts); answers how many. */
  tellUntold(): Promise<number>;
  /** Starts delivering what is recorded, what an earlier run left too. */
  recover(): Promise<void>;
  close(): Promise<void>;
}

const OFF: Webhooks = {
  listener: { dispatched: () => undefined, stopDone: () => undefined, etaChanged: () => undefined },
  watchActions: (store) => store,
  tellUntold: () => Promise.resolve(0),
  recover: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

export function createWebhooks(
  settings: WebhookSettings | undefined,
  store: WebhookStore,
  log: Log,
  options: WebhookOptions = {},
): Webhooks {
  if (settings === undefined || settings.urls.length === 0) return OFF;
  const now = options.now ?? ((): Date => new Date());
  const schedule = { ...RETRY_SCHEDULE, ...options.schedule };
  const deliver: Deliver = (delivery, at, stop) =>
    postEvent({
      url: delivery.url,
      body: delivery.body,
      eventId: delivery.event_id,
      eventType: delivery.event_type,
      secret: settings.secret,
      now: at,
      timeoutMs: schedule.timeoutMs,
      userAgent: options.userAgent ?? 'routeplan-webhooks',
      stop,
    });
  const senderSettings = { schedule, now, pollMs: options.pollMs ?? POLL_MS, random: options.random ?? Math.random };
  const sender = new WebhookSender(store, deliver, senderSettings, options.metrics ?? noMetrics, log);
  let endings: ReportingEndings | null = null;
  const record = async (events: WebhookEvent[]): Promise<void> => {
    const recordedAt = now().toISOString();
    await store.add(events.flatMap((event) => deliveriesOf(event, settings.urls, recordedAt)));
    if (events.length > 0) sender.pump();
  };
  return {
    listener: {
      dispatched: (event) => record([projectDispatched(event)]),
      stopDone: () => undefined,
      stopReported: (event) => record([stopReported(event)]),
      etaChanged: (event) => record(etasChanged(event)),
    },
    watchActions: (actions) => {
      endings = reportingEndings(actions, (stored: StoredAction) => record([actionEnded(stored, now())]), log);
      return endings.store;
    },
    tellUntold: () => endings?.tellUntold() ?? Promise.resolve(0),
    recover: async () => {
      await store.recover(log);
      sender.pump();
    },
    close: () => sender.close(),
  };
}

/**
 * The event on its way to each URL: the same body, signed anew at each attempt, tried from when it
 * is recorded (an event the dispatch told again after a restart gets its whole window of retries).
 */
function deliveriesOf(event: WebhookEvent, urls: string[], recordedAt: string): StoredDelivery[] {
  const body = JSON.stringify(event);
  return urls.map((url) => ({
    id: createHash('sha256').update(`${event.id}\n${url}`).digest('hex').slice(0, 32),
    event_id: event.id,
    event_type: event.type,
    url,
    body,
    created_at: recordedAt,
    attempts: 0,
    next_attempt_at: recordedAt,
  }));
}
