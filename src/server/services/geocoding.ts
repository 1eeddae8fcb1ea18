/**
 * A project's addresses are geocoded when it is created or changed (decisions.md, "Geocoding"), in the
 * background: the project answers `geocoding_status: pending` until then (its optimization is
 * refused with 409 geocoding_pending), and then lists what could not be placed well. Stops whose
 * address found nothing stay out of optimization (missing_location) until fixed.
 */
import type { GeocoderSettings } from '../../geocode/types.js';
import { createGeocoder, geocodeAddresses, normalizeAddress } from '../../geocode/index.js';
import { addressOnlyLocations } from '../../input/index.js';
import type { GeocodeCandidate } from '../../geocode/types.js';
import type { GeocodingFailure } from '../api-types.js';
import type { ProjectService } from './projects.js';

export class ProjectGeocoding {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly settings: GeocoderSettings | undefined,
    private readonly projects: ProjectService,
    private readonly log: (event: Record<string, unknown>) => void,
  ) {}

  get enabled(): boolean {
    return this.settings !== undefined;
  }

  /** Whether the project document has places given by address only. */
  needed(document: Record<string, unknown>): boolean {
    return this.enabled && addressOnlyLocations(document, 'project').length > 0;
  }

  /**
   * Geocodes the project's version `version` (a new project's is 1) in the background; the
   * project's record says when it is done. A change of the project starts its own geocoding.
   */
  start(projectId: string, document: Record<string, unknown>, version = 1): void {
    const run = this.geocode(projectId, version, document).finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** Starts again what a stop of the service interrupted. */
  async resume(): Promise<void> {
    for (const { id, version, document } of await this.projects.pendingGeocoding()) this.start(id, document, version);
  }

  /** Waits for the running geocodings, at most `timeoutMs`: one still running then is resumed at the next start. */
  async whenIdle(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.allSettled([...this.running]), timeout]);
    clearTimeout(timer);
  }

  private async geocode(projectId: string, version: number, document: Record<string, unknown>): Promise<void> {
    const places = addressOnlyLocations(document, 'project');
    let failures: GeocodingFailure[];
    try {
      const geocoder = await createGeocoder(this.settings!);
      const results = await geocodeAddresses(
        geocoder,
        this.settings!,
        places.map((place) => place.address),
        [],
      );
      failures = places.flatMap((place) => {
        const result = results.get(normalizeAddress(place.address))!;
        if (!result.problem && result.point) return [];
        const failure = failureOf(document, place.parts, place.address, result.problem ?? 'not_found', result.message ?? 'not found');
        return [withCandidates(failure, result.candidates)];
      });
    } catch (error) {
      const message = (error as Error).message;
      failures = places.map((place) => failureOf(document, place.parts, place.address, 'failed', message));
      // The geocoder's message may quote an address: the log keeps no personal data (README, "Personal data").
      const quoted = places.flatMap((place) => [place.address, normalizeAddress(place.address)]);
      const reason = quoted.reduce((text, address) => text.replaceAll(address, '<address>'), message);
      this.log({ event: 'geocoding_failed', project_id: projectId, reason });
    }
    await this.projects.geocoded(projectId, version, failures).catch((error: unknown) => {
      this.log({ event: 'geocoding_not_stored', project_id: projectId, reason: (error as Error).message });
    });
  }
}

function failureOf(
  document: Record<string, unknown>,
  parts: PropertyKey[],
  address: string,
  problem: GeocodingFailure['problem'],
  message: string,
): GeocodingFailure {
  const entry = (document[parts[0] as string] as Record<string, unknown>[] | undefined)?.[parts[1] as number];
  const path = `${String(parts[0])}[${String(parts[1])}].${String(parts[2])}`;
  return { stop: typeof entry?.name === 'string' ? entry.name : path, address, problem, message, path };
}

/** Candidates the user may pick from instead of the geocoder's first (review.ts: an ambiguous or far-off address). */
const CANDIDATES_KEPT = 5;

function withCandidates(failure: GeocodingFailure, candidates: GeocodeCandidate[]): GeocodingFailure {
  if (candidates.length === 0) return failure;
  const kept = candidates.slice(0, CANDIDATES_KEPT).map(({ lat, lng, label }) => ({ lat, lng, label }));
  return { ...failure, candidates: kept };
}
