/** What the page reads from the service's JSON API (see docs/decisions.md and the server). */
import type { Plan } from '../output/plan-types.js';

export interface Session {
  owner: string;
  csrfToken: string;
  expiresAt: string;
  openAccess: boolean;
  tiles: { url: string; attribution: string } | null;
  timeLimitSeconds: number;
}

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
  notes?: string;
}

export type ActionStatus = 'pending' | 'finished' | 'failed';

export interface Optimization {
  actionUuid: string;
  status: ActionStatus;
  created_at: string;
}

export interface Project {
  id: string;
  name: string;
  date: string;
  drivers: ProjectDriver[];
  stops: ProjectStop[];
  settings: Record<string, unknown>;
  url: string;
  created_at: string;
  optimizations?: Optimization[];
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

export interface ActionProgress {
  elapsed_ms: number;
  iterations: number;
  served: number;
  unserved: number;
  routes_used: number;
  cost: number;
}

export interface ServiceError {
  code: string;
  message: string;
  details?: { path: string; message: string }[];
}

export interface Action {
  actionUuid: string;
  actionName: string;
  status: ActionStatus;
  created_at: string;
  updated_at: string;
  started_at?: string;
  finished_at?: string;
  project_id?: string;
  progress?: ActionProgress;
  solution?: Plan;
  error?: ServiceError;
}
