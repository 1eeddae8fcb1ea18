/** The top bar's account area, shared by every page: who is signed in, and "Sign out". */
import { byId, h } from './dom.js';
import type { Session } from './types.js';

/** Sign-out is a plain form POST (with the CSRF token as a field), so it works like /login does. */
export function showAccount(session: Session): void {
  const form = h(
    'form',
    { method: 'post', action: '/logout', class: 'signout' },
    h('input', { type: 'hidden', name: 'csrf', value: session.csrfToken }),
    h('button', { type: 'submit', class: 'button subtle' }, 'Sign out'),
  );
  const who = session.openAccess ? 'Open access (no API keys configured)' : `Signed in as ${session.owner}`;
  byId('account').replaceChildren(h('span', { class: 'owner' }, who), session.openAccess ? '' : form);
}

/** Where a page sends a browser that is not signed in, so it comes back after signing in. */
export function signInUrl(): string {
  return `/?next=${encodeURIComponent(location.pathname + location.search)}`;
}

/** A status badge: the word carries the meaning, the colour only repeats it. */
export function statusBadge(status: string, label: string = statusLabel(status)): HTMLSpanElement {
  return h('span', { class: `badge badge-${status}` }, label);
}

export function statusLabel(status: string): string {
  switch (status) {
    case 'pending':
      return 'Running';
    case 'finished':
      return 'Planned';
    case 'failed':
      return 'Failed';
    default:
      return status;
  }
}

/** "14 May 2024" from "2024-05-14", in the browser's language, without a time-zone shift. */
export function formatDate(date: string): string {
  const parsed = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return parsed.toLocaleDateString(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** "14 May, 09:41" for a record's created_at, in local time. */
export function formatMoment(iso: string): string {
  const parsed = new Date(iso);
  if (Number.isNaN(parsed.getTime())) return iso;
  return parsed.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
