/** What the page reads from the service's JSON API (see docs/decisions.md and the server). */
import type { ErrorBody } from '../errors.js';
import type {
  ActionRecord,
  DispatchView,
  GeocodingFailure,
  NotificationsView,
  OptimizationSummary,
  SessionView,
} from '../server/api-types.js';

export type {
  ActionProgress,
  ActionStatus,
  DispatchStopView,
  DispatchView,
  DriverLinkView,
  GeocodingFailure,
  HandPlanBody,
  PlanEvaluation,
  PlanViolation,
  GeocodingCandidate,
  DriverRouteView,
  DriverStopView,
  FailureReasonCode,
  ProofSetting,
  StopProof,
  DriverPosition,
  StopStatus,
  StopStatusUpdate,
  NotificationView,
  NotificationsView,
  PromisedWindowView,
  TrackingView,
} from '../server/api-types.js';

export type Session = SessionView;

export interface Coords {
  lat: number;
  lng: number;
}

export interface ProjectLocation {
  address?: string;
  coords?: Coords;
}

export interface ClockWindow {
  start?: string;
  end?: string;
}

/** A driver as the project was submitted, with the service's id. */
export interface ProjectDriver {
  id: string;
  name: string;
  start_location?: ProjectLocation;
  end_location?: ProjectLocation;
  shift_start?: string;
  shift_end?: string;
  capacity?: number;
  types?: string | string[];
  speed?: string | number;
  phone_number?: string;
  break?: ClockWindow;
  breaks?: ClockWindow[];
}

export interface ProjectStop {
  id: string;
  name: string;
  location?: ProjectLocation;
  start?: string;
  end?: string;
  time_windows?: ClockWindow[];
  duration?: number;
  load?: number | Record<string, number>;
  priority?: string | number;
  types?: string | string[];
  phone_number?: string;
  email?: string;
  notes?: string;
  /** A lock: the driver (by name) who must serve it, and its place among that driver's locked stops. */
  driver?: string;
  sequence?: number;
}

export type Optimization = OptimizationSummary;

export interface Project {
  id: string;
  name: string;
  date: string;
  drivers: ProjectDriver[];
  stops: ProjectStop[];
  settings: Record<string, unknown>;
  url: string;
  created_at: string;
  /** Each change is one version on (If-Match / 412, decisions.md "Editing a project"). */
  version?: number;
  optimizations?: Optimization[];
  /** Once dispatched: the frozen plan's stops with the drivers' reports, and the drivers' links. */
  dispatch?: DispatchView;
  notifications?: NotificationsView;
  geocoding_status?: 'pending' | 'done';
  geocoding?: GeocodingFailure[];
}

export interface ProjectSummary {
  id: string;
  name: string;
  date: string;
  url: string;
  created_at: string;
  drivers: number;
  stops: number;
  latest_optimization?: Optimization | null;
}

export type ServiceError = ErrorBody['error'];

export type Action = ActionRecord;
