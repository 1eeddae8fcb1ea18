/**
 * What dispatching tells the rest of the service, so that customer notifications (notify/) follow
 * the day's routes without the dispatch knowing about e-mail, and the dispatch works the same with
 * notifications off.
 */
import type { FailureReasonCode, NotificationsView, PromisedWindowView, StopStatus } from '../../api-types.js';

/** The project as a customer message may name it. */
export interface DispatchedProject {
  id: string;
  name: string;
  date: string;
}

/** A stop of a dispatched route, with what a message to its customer may use. */
export interface DispatchedStop {
  stop_id: string;
  /** The stop's (customer's) name as given. */
  name: string;
  address?: string;
  email?: string;
  /** Planned service start and finish, seconds since midnight of the project's date; null without a duration. */
  start_s: number | null;
  finish_s: number | null;
  /** On a re-dispatch: whether its planned times or its driver differ from the previous dispatch. */
  changed: boolean;
  /** Planned arrival (seconds since midnight of the project's date); null without a duration. */
  arrival_s?: number | null;
  /** The window the customer was last promised (the planned arrival ± the margin, in quarter hours). */
  promised?: PromisedWindowView;
  /** The customer's tracking link's token (absent in dispatches made before tracking). */
  tracking_token?: string;
  status?: StopStatus;
}

/**
 * Which change an event tells of: the same each time it is told (the dispatch tells it again after a
 * listener failed or the process stopped before telling it: notices.ts), so listeners de-duplicate by it.
 */
export interface NoticeStamp {
  /** A random UUID given when the change was made. */
  id: string;
  /** When the change was made (the dispatch's clock). */
  at: string;
}

export interface DispatchedEvent {
  notice: NoticeStamp;
  owner: string;
  project: DispatchedProject;
  /** When this dispatch was made: its version, which customer messages are counted by. */
  dispatched_at: string;
  /** The optimization whose plan was dispatched. */
  action_id?: string;
  /** False on the first dispatch of the project. */
  redispatch: boolean;
  /**
   * Every stop on a route of the frozen plan, whether or not it is already done; on a re-dispatch,
   * `previous_promised` is what its customer was promised before (absent for a stop new to the routes).
   */
  stops: (DispatchedStop & { status: 'planned' | 'done' | 'failed'; previous_promised?: PromisedWindowView })[];
}

export interface StopDoneEvent {
  notice: NoticeStamp;
  owner: string;
  project: DispatchedProject;
  /** When the dispatch the stop is on was made (a stop is delivered once per dispatch). */
  dispatched_at: string;
  stop: DispatchedStop;
  /** When the driver marked it done. */
  at: string;
}

/** A stop whose status became done or failed (webhooks). */
export interface StopReportedEvent extends StopDoneEvent {
  status: 'done' | 'failed';
  driver_id: string;
  /** For a failed stop: the reason from the driver's list (never the driver's own text). */
  reason_code?: FailureReasonCode;
}

/** A driver's remaining stops re-timed after a report (done, failed or position): their new estimates. */
export interface EtaChangedEvent {
  notice: NoticeStamp;
  owner: string;
  project: DispatchedProject;
  stops: { stop: DispatchedStop; eta_s: number; late: boolean }[];
}

/**
 * A customer's promise revised because their stop's estimate left it (promise.ts), written with the
 * revision so that the revised message is queued at least once.
 */
export interface PromiseRevisedEvent {
  notice: NoticeStamp;
  owner: string;
  project: DispatchedProject;
  /** The stop, `promised` being the new window. */
  stop: DispatchedStop;
  /** The window it replaces. */
  previous: PromisedWindowView;
  /** When it was revised: the message's version. */
  revised_at: string;
}

/**
 * Told after the change is stored, within the change's turn: a promise returned is awaited before
 * the change is answered (webhooks record their events so). The change and its events are written
 * together (notices.ts): an event whose telling failed (a promise rejected) or was cut short by the
 * end of the process is told again, with the same `notice`, at the dispatch's next change, at the
 * next start and at each retention sweep; so each event is told at least once, and a listener keeps
 * it once by `notice.id`. Its failures are never answered to the dispatcher or the driver.
 */
export interface DispatchListener {
  dispatched(event: DispatchedEvent): void | Promise<void>;
  /** Only when a stop becomes done, not when the same status is sent again (an offline replay). */
  stopDone(event: StopDoneEvent): void | Promise<void>;
  /** When a stop becomes done or failed (not on a repeat of the same report). */
  stopReported?(event: StopReportedEvent): void | Promise<void>;
  /** Only for stops whose estimate moved; customer messages decide whether it left the promised window. */
  etaChanged(event: EtaChangedEvent): void | Promise<void>;
  /** When a customer's promise was revised (CustomerPromises.revise). */
  promiseRevised?(event: PromiseRevisedEvent): void | Promise<void>;
}

/** Where customers' promises are kept (the dispatch record), for the revised messages. */
export interface CustomerPromises {
  /**
   * Records a new promise for a stop whose estimate left its window, when one is due, with a
   * promiseRevised event told to the listeners; answers whether it did.
   */
  revise(projectId: string, stopId: string, eta_s: number): Promise<boolean>;
}

/** The project's customer messages, for its answers. */
export interface ProjectMessages {
  of(projectId: string): Promise<NotificationsView>;
}
