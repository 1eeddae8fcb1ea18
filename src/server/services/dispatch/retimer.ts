/**
 * The live estimates' I/O (eta.ts holds the rules): the project as it stands, the travel times of
 * the one route from the project's travel source, and the evaluator's times written onto the
 * dispatch. One route of one driver is timed per report, so it stays a small table and a single
 * evaluation, well inside the report's answer.
 */
import { loadProblemDocument, resolveProblemDocument, type LoadOptions } from '../../../input/index.js';
import type { Problem } from '../../../model/problem.js';
import type { ProjectService } from '../projects.js';
import { applyEstimates, estimatesOf, remainingStops, restOfRouteDocument, type ReportPlace } from './eta.js';
import type { FrozenDispatch, FrozenStop } from './frozen.js';
import { resumeSeconds } from './reoptimize.js';
import { projectZone } from './zone-clock.js';

/** A report's place and its instant, before it is read on the project's clock. */
export interface ReportAt {
  lat: number;
  lng: number;
  at: Date;
}

/** What the dispatch asks after a report: re-time that driver's remaining stops in the dispatch record. */
export interface Retimer {
  /** Writes `eta_s` and `late` onto the driver's remaining stops; answers those whose estimate moved. */
  retime(dispatch: FrozenDispatch, driverId: string, from: ReportAt): Promise<FrozenStop[]>;
}

/**
 * The driver waits for the answer to their report: a provider that does not answer soon is not
 * waited for with an optimization's patience (30 s a request, 4 retries), straight lines stand in.
 */
const REPORT_TRAVEL_LIMITS = { timeoutMs: 5_000, retries: 1 };

export class ProjectRetimer implements Retimer {
  constructor(
    private readonly projects: Pick<ProjectService, 'find'>,
    /** The service's travel settings (source, provider, offline model constants), as optimizations use them. */
    private readonly options: LoadOptions,
    private readonly log: (event: Record<string, unknown>) => void,
  ) {}

  async retime(dispatch: FrozenDispatch, driverId: string, from: ReportAt): Promise<FrozenStop[]> {
    const stops = remainingStops(dispatch, driverId);
    if (stops.length === 0) return [];
    const found = await this.projects.find(dispatch.owner, dispatch.project.id);
    if (!found) return [];
    const place: ReportPlace = { lat: from.lat, lng: from.lng, at: this.secondsOf(found.record, from.at) };
    const document = restOfRouteDocument(found.record, found.document, driverId, stops, place);
    if (document === null) return [];
    return applyEstimates(dispatch, estimatesOf(await this.problemOf(document, dispatch.project.id), stops));
  }

  private secondsOf(project: { date: string; settings: Record<string, unknown> }, at: Date): number {
    return resumeSeconds(project.date, at, projectZone(project.settings));
  }

  /** The route's problem with the project's travel source; if the provider fails, straight-line speed (logged). */
  private async problemOf(document: Record<string, unknown>, projectId: string): Promise<Problem> {
    const { travel, ...offline } = this.options;
    if (travel === undefined || travel.source === 'haversine') return loadProblemDocument(document, offline).problem;
    try {
      return (await resolveProblemDocument(document, { ...offline, travel: { ...travel, ...REPORT_TRAVEL_LIMITS } })).problem;
    } catch (error) {
      this.log({ event: 'eta_travel_fallback', project_id: projectId, source: travel.source, reason: (error as Error).message });
      return loadProblemDocument(document, offline).problem;
    }
  }
}
