/**
 * Tracking links (decisions.md, "The live day"): each dispatched stop's customer follows their own
 * delivery on a read-only page, no sign-in; the unguessable token in the URL is the credential and
 * opens that one stop. Like driver links, only which project a token belongs to is kept in memory;
 * everything shown is read from the store, which another process may have changed (PostgreSQL).
 */
import type { FailureReasonCode, TrackingView } from '../../api-types.js';
import { HttpError } from '../../http/replies.js';
import type { RecordStore } from '../../store/ports.js';
import type { FrozenDispatch, FrozenStop } from './frozen.js';

export interface TrackingSettings {
  now: () => Date;
  log: (event: Record<string, unknown>) => void;
}

/** A failure as the customer reads it: the reason from the driver's list, never the driver's own words. */
const FAILURE_WORDING: Record<FailureReasonCode, string> = {
  not_at_home: 'The driver came but nobody was there to receive it.',
  refused: 'The delivery was refused at the door.',
  address_not_found: 'The driver could not find the address.',
  damaged: 'The goods were damaged, so they were not delivered.',
  other: 'The delivery could not be made.',
};

export class TrackingService {
  /** Token → project id, for every token seen (retired ones too, which answer 410). */
  private readonly projects = new Map<string, string>();
  /** The reading under way: unknown tokens arriving together share one read of the store. */
  private reading: Promise<void> | null = null;

  constructor(
    private readonly store: RecordStore,
    private readonly settings: TrackingSettings,
  ) {}

  /** Learns every tracking token of every dispatch (again, when a token is not known here yet). */
  recover(): Promise<void> {
    this.reading ??= this.readTokens().finally(() => (this.reading = null));
    return this.reading;
  }

  private async readTokens(): Promise<void> {
    const { records } = await this.store.readAll<FrozenDispatch>('dispatches');
    for (const dispatch of records) {
      const tokens = [...dispatch.stops.map((stop) => stop.tracking_token), ...(dispatch.retired_tracking_tokens ?? [])];
      for (const token of tokens) if (token !== undefined) this.projects.set(token, dispatch.project.id);
    }
  }

  /** What the customer's page shows; 404 for an unknown token, 410 once expired or when the stop left the routes. */
  async statusOf(token: string): Promise<TrackingView> {
    const { dispatch, stop } = await this.open(token);
    return trackingView(dispatch, stop);
  }

  private async open(token: string): Promise<{ dispatch: FrozenDispatch; stop: FrozenStop }> {
    if (!this.projects.has(token)) await this.recover();
    const projectId = this.projects.get(token);
    const dispatch = projectId !== undefined ? await this.store.read<FrozenDispatch>('dispatches', projectId) : null;
    if (!dispatch) throw new HttpError(404, 'link_not_found', 'this tracking link is not valid; check that you opened the whole link');
    const stop = dispatch.stops.find((candidate) => candidate.tracking_token === token);
    if (!stop) {
      if (!(dispatch.retired_tracking_tokens ?? []).includes(token)) {
        throw new HttpError(404, 'link_not_found', 'this tracking link is not valid; check that you opened the whole link');
      }
      throw new HttpError(410, 'link_revoked', 'this delivery is no longer planned on this day; the sender will tell you more');
    }
    if (this.settings.now().getTime() > Date.parse(dispatch.expires_at)) {
      throw new HttpError(410, 'link_expired', `this tracking link expired at ${dispatch.expires_at}`);
    }
    return { dispatch, stop };
  }
}

/** The customer's own stop, and of the route only how many stops still come before it. */
export function trackingView(dispatch: FrozenDispatch, stop: FrozenStop): TrackingView {
  const open = stop.status === 'planned';
  return {
    name: stop.name,
    project: { name: dispatch.project.name, date: dispatch.project.date },
    status: stop.status,
    at: stop.at,
    ...(stop.status === 'failed' ? { failure: FAILURE_WORDING[stop.reason_code ?? 'other'] ?? FAILURE_WORDING.other } : {}),
    promised: stop.promised ?? null,
    eta_s: open ? (typeof stop.eta_s === 'number' ? stop.eta_s : stop.arrival_s) : null,
    stops_before: open ? stopsBefore(dispatch.stops, stop) : 0,
  };
}

/** Stops of the same driver, earlier in the route, not yet done or failed. */
function stopsBefore(stops: FrozenStop[], stop: FrozenStop): number {
  const route = stops.filter((candidate) => candidate.driver_id === stop.driver_id);
  return route.slice(0, route.indexOf(stop)).filter((candidate) => candidate.status === 'planned').length;
}
