/**
 * The shapes the JSON API answers with, declared once for the service that writes them and the
 * web page that reads them (src/web imports these as types only, so nothing here may need Node).
 */
import type { ErrorBody, Warning } from '../errors.js';
import type { Plan, PlanGeometry } from '../output/plan-types.js';
import type { PlanViolation } from '../output/plan-violations.js';

export type { PlanViolation, ViolationKind } from '../output/plan-violations.js';

/** The action's status as decisions.md names them; a cancel is `failed` with the code `cancelled`. */
export type ActionStatus = 'pending' | 'finished' | 'failed';

export type ActionName = 'schedule' | 'optimize' | 'reoptimize';

/**
 * How a project's plan was made: `optimized` by its optimize action, `edited` by hand (POST
 * /v1.0/project/{id}/plans, kept as a finished action). A record from before kinds reads `optimized`.
 */
export type PlanKind = 'optimized' | 'edited' | 'reoptimized';

/** The solver's best plan so far, as GET /v2/schedules/{actionUuid} shows it while the action runs. */
export interface ActionProgress {
  elapsed_ms: number;
  iterations: number;
  served: number;
  unserved: number;
  routes_used: number;
  cost: number;
}

/** What GET /v2/schedules/{actionUuid} answers. */
export interface ActionRecord {
  actionUuid: string;
  actionName: ActionName;
  status: ActionStatus;
  created_at: string;
  updated_at: string;
  started_at?: string;
  finished_at?: string;
  /** For `optimize` actions: the project optimized. */
  project_id?: string;
  /** For `optimize` actions: the project's version optimized (its stops and drivers as they were then). */
  project_version?: number;
  /** For a project's actions: how its plan was made. */
  kind?: PlanKind;
  /** For an `edited` plan: the plan it was edited from, when the request named one. */
  based_on?: string;
  warnings?: Warning[];
  solution?: Plan;
  error?: ErrorBody['error'];
  /** While pending and once the solver reported: its best plan so far (never stored). */
  progress?: ActionProgress;
}

/** A project's routes as a user arranged them: driver id → the ids of the stops it serves, in order (POST …/plans). */
export interface HandPlanBody {
  routes: Record<string, string[]>;
  unserved?: string[];
  /** The plan the user started from (an actionUuid of the project). */
  base?: string;
}

/** What POST /v1.0/project/{id}/plans/evaluate answers: the routes re-timed and every rule they break. */
export interface PlanEvaluation {
  project_version: number;
  plan: Plan;
  violations: PlanViolation[];
}

/** One optimize action of a project, as the project's answers list it. */
export interface OptimizationSummary {
  actionUuid: string;
  status: ActionStatus;
  created_at: string;
  kind: PlanKind;
}

/** An address of a project that the geocoder could not place well (decisions.md, "Geocoding"). */
export interface GeocodingFailure {
  /** The stop's or driver's name. */
  stop: string;
  address: string;
  /** not_found (left out of optimization until fixed), ambiguous or outlier (placed, worth a look), failed. */
  problem: 'not_found' | 'ambiguous' | 'outlier' | 'failed';
  message: string;
  /** Where in the project, e.g. `stops[3].location`. */
  path: string;
  /** The places the geocoder offered, best first (at most 5; none when not found): the page lets the user pick one. */
  candidates?: GeocodingCandidate[];
}

/** A place the geocoder offered for an address. */
export interface GeocodingCandidate {
  lat: number;
  lng: number;
  /** The geocoder's name for the place. */
  label: string;
}

/** What GET /session answers to a signed-in browser. */
export interface SessionView {
  owner: string;
  csrfToken: string;
  expiresAt: string;
  openAccess: boolean;
  /** The map's basemap: raster tiles (a URL template) or a PMTiles extract the service serves; null: a plain background. */
  tiles: TilesView | null;
  timeLimitSeconds: number;
}

/** What the page's map draws its streets from (`attribution` is HTML, as the tile source asks for it). */
export type TilesView =
  { kind: 'raster'; url: string; attribution: string } | { kind: 'pmtiles'; url: string; attribution: string; maxZoom: number };

/** A dispatched stop's progress, as the driver reported it (decisions.md, "Dispatch"). */
export type StopStatus = 'planned' | 'done' | 'failed';

/** One stop of a dispatched plan, in GET /v1.0/project/{id}'s `dispatch.stops`. */
export interface DispatchStopView {
  stop_id: string;
  status: StopStatus;
  /** When the driver marked it (the device's time of the tap, also for a status sent later); null while planned. */
  at: string | null;
  /** Why a stop failed, as the driver wrote it. */
  reason?: string;
  /** The driver whose route holds the stop. */
  driver_id: string;
  /** Planned arrival as dispatched (seconds since midnight of the project's date; null without a duration), beside `eta_s`. */
  arrival_s?: number | null;
  /** The failure's reason from the driver page's list (`reason` keeps the driver's text). */
  reason_code?: FailureReasonCode;
  /** Current estimated arrival (seconds since midnight of the project's date), re-timed after each report; absent before any. */
  eta_s?: number | null;
  /** Whether the current estimate passes the stop's window end (decisions.md, "The live day"). */
  late?: boolean;
  /** What the driver gave as proof of delivery, fetchable by the project's owner. */
  proof?: StopProof;
  /** The window its customer was last promised (absent without planned times). */
  promised?: PromisedWindowView;
  /** The customer's tracking page, `<public url>/track/<token>`. */
  tracking_url?: string;
}

/** The reasons a driver picks from when a stop fails. */
export type FailureReasonCode = 'not_at_home' | 'refused' | 'address_not_found' | 'damaged' | 'other';

/** A driver's last shared position (opt-in on the driver page). */
export interface DriverPosition {
  lat: number;
  lng: number;
  /** When the device took it (ISO 8601). */
  at: string;
  accuracy_m?: number;
}

/** Proof of delivery of a done stop: URLs answer only to the project's owner and that driver's link. */
export interface StopProof {
  photo_url?: string;
  signature_url?: string;
  recipient?: string;
}

/** One driver's link to their driver page, shown to the dispatcher only. */
export interface DriverLinkView {
  driver_id: string;
  driver_name: string;
  /** The driver page, `<public url>/drivers/<token>`; absent once revoked (until a new link is made). */
  url?: string;
  phone_number?: string;
  expires_at: string;
  revoked: boolean;
  /** Stops on the driver's dispatched route. */
  stops: number;
  /** The driver's last shared position, when they share it. */
  position?: DriverPosition;
}

/** What GET /v1.0/project/{id} gains once the project is dispatched. */
export interface DispatchView {
  /** The optimization whose plan was frozen as the day's routes. */
  actionUuid: string;
  dispatched_at: string;
  /** Only stops on a route (unserved stops are not dispatched), in route order. */
  stops: DispatchStopView[];
  drivers: DriverLinkView[];
}

/** `planned` on dispatch, `revised` when the estimate leaves the promised window, `delivered` when done. */
export type NotificationKind = 'planned' | 'delivered' | 'revised';

/** One customer e-mail, as recorded on the project. */
export interface NotificationView {
  id: string;
  kind: NotificationKind;
  stop_id: string;
  to: string;
  subject: string;
  created_at: string;
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  sent_at?: string;
  /** The last failure (SMTP reply or network error), when there was one. */
  error?: string;
}

/** What GET /v1.0/project/{id} gains: whether customers are notified, and every message. */
export interface NotificationsView {
  /** False when the service has no SMTP configured: nothing is sent. */
  enabled: boolean;
  /** Newest first. */
  messages: NotificationView[];
}

/** One stop on a driver page (GET /drivers/{token}/route), in route order. */
export interface DriverStopView {
  stop_id: string;
  /** The stop's (customer's) name as given. */
  name: string;
  address?: string;
  lat: number;
  lng: number;
  /** The customer's phone number, for tap to call. */
  phone_number?: string;
  notes?: string;
  custom_notes?: Record<string, unknown>;
  /**
   * Planned arrival, service start and finish, seconds since midnight of the project's date (may pass
   * 86,400 on overnight routes); null when the project gives the stop no duration (no ETAs then).
   */
  arrival_s: number | null;
  start_s: number | null;
  finish_s: number | null;
  status: StopStatus;
  at: string | null;
  reason?: string;
  reason_code?: FailureReasonCode;
  /** Current estimated arrival after the day's reports (see DispatchStopView). */
  eta_s?: number | null;
  late?: boolean;
  proof?: StopProof;
}

/** What a driver's link reads: their own route only, never another driver's or the project's. */
export interface DriverRouteView {
  project: { name: string; date: string };
  driver: { id: string; name: string };
  dispatched_at: string;
  expires_at: string;
  /** Where the day starts and ends, when the driver has them. */
  start?: { lat: number; lng: number; time_s: number };
  end?: { lat: number; lng: number; time_s: number };
  /** The route along the roads (a GeoJSON LineString, [lng, lat]), when it was planned with road travel. */
  geometry?: PlanGeometry;
  stops: DriverStopView[];
  /** What the project's `settings.proof` asks for on Done (absent: nothing). */
  proof_required?: ProofSetting;
  /** The basemap of the page's small map, as the dispatcher's page has it (GET /session `tiles`). */
  tiles?: TilesView | null;
}

/** `settings.proof`: what a driver must give on Done (decisions.md, "The live day"). */
export type ProofSetting = 'none' | 'photo' | 'signature' | 'photo_or_signature';

/** What the driver page posts for a stop (POST /drivers/{token}/stops/{stopId}). */
export interface StopStatusUpdate {
  status: 'done' | 'failed' | 'planned';
  /** Required for `failed` (1–500 characters). */
  reason?: string;
  /** The device's time of the tap (ISO 8601); the server's time when absent or in the future. */
  at?: string;
  /** For `failed`: the reason from the list; `other` needs `reason`. A bare `reason` (older pages) counts as `other`. */
  reason_code?: FailureReasonCode;
  /** For `done`: who took the delivery (at most 200 characters). */
  recipient?: string;
  /** For `done`: the photo, base64 (or a data: URL) of a JPEG, PNG or WebP of at most 2.5 MB. */
  photo?: string;
  /** For `done`: the drawn signature, base64 (or a data: URL) of a PNG, JPEG or WebP of at most 200 kB. */
  signature?: string;
}

/** A window promised to a customer: seconds since midnight of the project's date (past 86,400 the next day). */
export interface PromisedWindowView {
  start_s: number;
  end_s: number;
}

/** What a customer's tracking link reads (GET /track/{token}/status): their own stop, nothing of anyone else's. */
export interface TrackingView {
  /** The stop's (customer's own) name. */
  name: string;
  project: { name: string; date: string };
  status: StopStatus;
  /** When the driver marked it done or failed; null while planned. */
  at: string | null;
  /** Only when failed: why, in words for the customer (never the driver's own text). */
  failure?: string;
  /** What the customer was last promised; null for a stop without planned times. */
  promised: PromisedWindowView | null;
  /** Estimated arrival: the live re-timing's when there is one, else the planned arrival; null once done or failed. */
  eta_s: number | null;
  /** Stops of the same route before this one that are still to do (0 once it is done or failed). */
  stops_before: number;
}
