/**
 * Customer notifications (decisions.md, "Dispatch to drivers and customer notifications"): with
 * SMTP configured, each stop with an `email` gets its promised window when dispatched (on a
 * re-dispatch only if that window changed), a revised window when its estimate leaves the promised one (the
 * dispatch keeps the promise and says when one is due), and one message when delivered; each carries
 * the stop's tracking link. Without SMTP nothing is sent, nothing is stored, and the project says so.
 */
import { createTransport } from 'nodemailer';
import type { NotificationKind, PromisedWindowView } from '../../api-types.js';
import type {
  DispatchedEvent,
  DispatchedProject,
  DispatchedStop,
  CustomerPromises,
  DispatchListener,
  EtaChangedEvent,
  ProjectMessages,
  PromiseRevisedEvent,
  StopDoneEvent,
} from '../dispatch/events.js';
import type { OutboxStore } from '../../store/ports.js';
import { Outbox, RETRY_DELAYS_MS, type Send } from './outbox.js';
import type { SmtpSettings } from './settings.js';
import type { ServiceMetrics } from '../../metrics.js';
import { deliveredText, loadTemplates, promiseText, render, type MessageFields, type Templates } from './templates.js';

export type { SmtpSettings } from './settings.js';

export interface Notifications {
  listener: DispatchListener;
  messages: ProjectMessages;
  recover(): Promise<void>;
  close(): Promise<void>;
}

const OFF: Notifications = {
  listener: { dispatched: () => undefined, stopDone: () => undefined, etaChanged: () => undefined },
  messages: { of: () => Promise.resolve({ enabled: false, messages: [] }) },
  recover: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

export interface NotifyOptions {
  now?: () => Date;
  retryDelaysMs?: readonly number[];
  /** How often to look for messages queued by another process (the outbox's POLL_MS by default). */
  pollMs?: number;
  /** Replaces the SMTP transport (tests of what happens around a send). */
  send?: Send;
  /** Where promises are kept and revised; without it no revised message is sent. */
  promises?: CustomerPromises;
  /** The tracking page's public URL for a token. */
  trackingUrl?: (token: string) => string;
  /** Where each message sent or given up on is counted (`/metrics`). */
  metrics?: ServiceMetrics;
}

export async function createNotifications(
  smtp: SmtpSettings | undefined,
  store: OutboxStore,
  log: (event: Record<string, unknown>) => void,
  options: NotifyOptions = {},
): Promise<Notifications> {
  if (smtp === undefined) return OFF;
  const templates = await loadTemplates(smtp.templatesDir);
  const now = options.now ?? (() => new Date());
  const outbox = new Outbox(store, options.send ?? smtpSender(smtp), log, now, options.retryDelaysMs ?? RETRY_DELAYS_MS, options.pollMs);
  if (options.metrics) outbox.countIn(options.metrics);
  const notifier = new Notifier(outbox, templates, log, options);
  return {
    listener: {
      dispatched: (event) => notifier.dispatched(event),
      stopDone: (event) => notifier.stopDone(event),
      etaChanged: (event) => notifier.etaChanged(event),
      promiseRevised: (event) => notifier.promiseRevised(event),
    },
    messages: { of: (projectId) => outbox.of(projectId) },
    recover: () => outbox.recover(),
    close: () => outbox.close(),
  };
}

/** One SMTP connection pool for the service; each message goes to its one customer only. */
function smtpSender(smtp: SmtpSettings): Send {
  const transport = createTransport(smtp.url);
  return async (message) => {
    await transport.sendMail({ from: smtp.from, to: message.to, subject: message.subject, text: message.text });
  };
}

class Notifier {
  constructor(
    private readonly outbox: Outbox,
    private readonly templates: Templates,
    private readonly log: (event: Record<string, unknown>) => void,
    private readonly options: Pick<NotifyOptions, 'promises' | 'trackingUrl'>,
  ) {}

  /**
   * The promised window to each stop with an e-mail; on a re-dispatch only to those whose window
   * changed: a revised message naming the window it replaces, or a planned one for a stop new to the routes.
   */
  dispatched(event: DispatchedEvent): Promise<void> {
    const version = `dispatch ${event.dispatched_at}`;
    const queued: Promise<void>[] = [];
    for (const stop of event.stops) {
      if (!stop.email || stop.status !== 'planned') continue;
      if (!event.redispatch) queued.push(this.queue(event.owner, event.project, stop, 'planned', version));
      else if (stop.changed && !samePromise(stop.previous_promised, stop.promised)) {
        const previous = stop.previous_promised;
        if (previous === undefined) queued.push(this.queue(event.owner, event.project, stop, 'planned', version));
        else queued.push(this.queue(event.owner, event.project, stop, 'revised', version, { previous_window: promiseText(previous) }));
      }
    }
    return allStored(queued);
  }

  /** One delivered message per stop and dispatch: marking it done again (undone in between, on any process) queues none. */
  stopDone(event: StopDoneEvent): Promise<void> {
    if (!event.stop.email) return Promise.resolve();
    const version = `dispatch ${event.dispatched_at}`;
    return this.queue(event.owner, event.project, event.stop, 'delivered', version, { delivered_at: deliveredText(event.at) });
  }

  /**
   * Asks the dispatch to revise the promise of each stop with an e-mail whose new estimate left it;
   * the dispatch writes each revision with its event (promiseRevised), so that its message is queued
   * at least once. Not waited for: the revision takes the project's turn, which the dispatch holds
   * while it tells this event.
   */
  etaChanged(event: EtaChangedEvent): void {
    const promises = this.options.promises;
    if (promises === undefined) return;
    for (const { stop, eta_s } of event.stops) {
      if (!stop.email || (stop.status !== undefined && stop.status !== 'planned')) continue;
      promises.revise(event.project.id, stop.stop_id, eta_s).catch((error: unknown) => {
        this.log({ event: 'revision_failed', project_id: event.project.id, stop_id: stop.stop_id, reason: (error as Error).message });
      });
    }
  }

  /** The revised message: the new window and the one it replaces, once per revision. */
  promiseRevised(event: PromiseRevisedEvent): Promise<void> {
    const fields = { previous_window: promiseText(event.previous) };
    return this.queue(event.owner, event.project, event.stop, 'revised', `promise ${event.revised_at}`, fields);
  }

  /** Stores the message (once per stop, kind and version: queued again, it is kept once); a failure is logged and answered. */
  private queue(
    owner: string,
    project: DispatchedProject,
    stop: DispatchedStop,
    kind: NotificationKind,
    version: string,
    extra: Partial<MessageFields> = {},
  ): Promise<void> {
    const fields: MessageFields = {
      'project.name': project.name,
      'project.date': project.date,
      'stop.name': stop.name,
      'stop.address': stop.address ?? '',
      window: promiseText(stop.promised),
      previous_window: '',
      delivered_at: '',
      tracking_url: stop.tracking_token !== undefined && this.options.trackingUrl ? this.options.trackingUrl(stop.tracking_token) : '',
      ...extra,
    };
    const { subject, text } = render(this.templates[kind], fields);
    const to = stop.email!.trim();
    const message = { project_id: project.id, owner, kind, stop_id: stop.stop_id, version, to, subject, text };
    return this.outbox.add(message, isMailAddress(to) ? null : 'not an e-mail address').catch((error: unknown) => {
      this.log({ event: 'notification_not_stored', project_id: project.id, stop_id: stop.stop_id, reason: (error as Error).message });
      throw error;
    });
  }
}

/** Waits for every message to be stored, and fails if any was not (the dispatch then tells the event again: notices.ts). */
async function allStored(queued: Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(queued)).find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

function samePromise(a: PromisedWindowView | undefined, b: PromisedWindowView | undefined): boolean {
  return a?.start_s === b?.start_s && a?.end_s === b?.end_s;
}

/** One plain address (no display name, no list): a customer's `email` field must not reach anyone else. */
export function isMailAddress(text: string): boolean {
  return /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/.test(text);
}
