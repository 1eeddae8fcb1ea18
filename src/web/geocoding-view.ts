/** The project's addresses as the service geocoded them: while it works, and what it could not place well. */
import { getProject } from './api.js';
import { byId, h } from './dom.js';
import type { GeocodingFailure, Project } from './types.js';

const POLL_MS = 2_000;

const PROBLEMS: Record<GeocodingFailure['problem'], string> = {
  not_found: 'Not found: left out of optimization until fixed',
  ambiguous: 'Several places match: the first was used',
  outlier: 'Far from the other stops',
  failed: 'The geocoder failed',
};

/** Shows the state, and polls while the service is still geocoding; resolves once it is done. */
export async function followGeocoding(project: Project): Promise<void> {
  let current = project;
  render(current);
  while (current.geocoding_status === 'pending') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    current = await getProject(project.id).catch(() => current);
    render(current);
  }
}

function render(project: Project): void {
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
      h('thead', {}, h('tr', {}, ...['Stop', 'Address', 'Problem', 'Details'].map((name) => h('th', { scope: 'col' }, name)))),
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
          ),
        ),
      ),
    ),
  );
}
