/**
 * The project's addresses as the service geocoded them: while it works, and what it could not
 * place well, each with the ways to fix it (a candidate to pick, placing it on the map).
 */
import { getProject } from './api.js';
import { button, byId, h } from './dom.js';
import type { GeocodingCandidate, GeocodingFailure, Project } from './types.js';

/** How the page fixes an address (the editor saves each through PATCH …/stops/{id} or …/drivers/{id}). */
export interface AddressFixes {
  /** `shown` is the version the failure was listed for: its path names a stop or driver of that version. */
  pick(shown: Project, failure: GeocodingFailure, candidate: GeocodingCandidate): void;
  place(shown: Project, failure: GeocodingFailure): void;
}

const POLL_MS = 2_000;

const PROBLEMS: Record<GeocodingFailure['problem'], string> = {
  not_found: 'Not found: left out of optimization until fixed',
  ambiguous: 'Several places match: the first is used until you pick one',
  outlier: 'Far from the other stops',
  failed: 'The geocoder failed',
};

/** Bumped by each call of followGeocoding, so that the poll of an older version stops. */
let following = 0;

/**
 * Shows the state, and polls while the service is still geocoding; resolves once it is done.
 * Called again after each change of the project (which may start geocoding again).
 */
export async function followGeocoding(project: Project, fixes?: AddressFixes): Promise<void> {
  const mine = ++following;
  let current = project;
  render(current, fixes);
  while (current.geocoding_status === 'pending') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (mine !== following) return;
    current = await getProject(project.id).catch(() => current);
    if (mine !== following) return;
    render(current, fixes);
  }
}

function render(project: Project, fixes: AddressFixes | undefined): void {
  const section = byId('geocoding');
  const body = byId('geocoding-body');
  if (project.geocoding_status === undefined) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  if (project.geocoding_status === 'pending') {
    body.replaceChildren(h('p', { class: 'muted' }, 'Finding the addresses of this project… Optimize works once they are placed.'));
    return;
  }
  const failures = project.geocoding ?? [];
  if (failures.length === 0) {
    body.replaceChildren(h('p', { class: 'muted' }, 'Every address was placed.'));
    return;
  }
  body.replaceChildren(
    h('p', {}, `${failures.length} address${failures.length === 1 ? '' : 'es'} to check:`),
    h(
      'table',
      { class: 'data' },
      h('caption', { class: 'visually-hidden' }, 'Addresses the geocoder could not place well'),
      h(
        'thead',
        {},
        h('tr', {}, ...['Stop', 'Address', 'Problem', 'Details', ...(fixes ? ['Fix'] : [])].map((name) => h('th', { scope: 'col' }, name))),
      ),
      h(
        'tbody',
        {},
        ...failures.map((failure) =>
          h(
            'tr',
            {},
            h('td', {}, failure.stop),
            h('td', {}, failure.address),
            h('td', {}, PROBLEMS[failure.problem]),
            h('td', {}, failure.message),
            fixes ? h('td', { class: 'fixes' }, ...fixControls(project, failure, fixes)) : null,
          ),
        ),
      ),
    ),
  );
}

function fixControls(shown: Project, failure: GeocodingFailure, fixes: AddressFixes): HTMLElement[] {
  const candidates = failure.candidates ?? [];
  const list =
    candidates.length > 0
      ? h(
          'ul',
          { class: 'candidates', 'aria-label': `Places found for ${failure.stop}` },
          ...candidates.map((candidate) =>
            h(
              'li',
              {},
              button(`Use ${candidate.label || `${candidate.lat}, ${candidate.lng}`}`, () => fixes.pick(shown, failure, candidate), {
                class: 'button small',
              }),
            ),
          ),
        )
      : null;
  const place = button('Place on map', () => fixes.place(shown, failure), {
    class: 'button small',
    'aria-label': `Place on map: ${failure.stop}, ${failure.address}`,
  });
  return list ? [list, place] : [place];
}
