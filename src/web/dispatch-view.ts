/** The dispatch card's parts: progress figures, each driver's link, the stops' reports, the customer e-mails. */
import { formatMoment } from './account.js';
import { button, h } from './dom.js';
import { customerCell } from './customer-promise.js';
import { expectedCell, lateCount, plannedCell, positionLine } from './live-view.js';
import type { DispatchStopView, DispatchView, DriverLinkView, NotificationsView, NotificationView, Project } from './types.js';
import { failureText } from './failure-reasons.js';
import { proofCell } from './proof-view.js';

export interface DriverLinkActions {
  copy(link: DriverLinkView): Promise<void>;
  revoke(link: DriverLinkView): Promise<void>;
  renew(link: DriverLinkView): Promise<void>;
}

/** "5 of 12 stops done · 1 failed · 6 to go", for the eye and for a screen reader alike. */
export function progressSummary(stops: DispatchStopView[]): HTMLElement {
  const count = (status: DispatchStopView['status']): number => stops.filter((stop) => stop.status === status).length;
  const done = count('done');
  return h(
    'div',
    { class: 'dispatch-progress' },
    h(
      'p',
      { class: 'run-line' },
      h('strong', {}, `${done} of ${stops.length} stops done`),
      ` · ${count('failed')} failed · ${count('planned')} to go`,
    ),
    h('progress', { max: Math.max(stops.length, 1), value: done + count('failed'), 'aria-label': 'Stops reported of all stops' }),
  );
}

/** One entry per driver: their page, Copy link, an sms: link to their phone (or why not), Revoke / New link. */
export function driverLinks(dispatch: DispatchView, actions: DriverLinkActions): HTMLElement {
  return h('ul', { class: 'driver-links' }, ...dispatch.drivers.map((link) => driverLinkItem(dispatch, link, actions)));
}

function driverLinkItem(dispatch: DispatchView, link: DriverLinkView, actions: DriverLinkActions): HTMLLIElement {
  const reported = dispatch.stops.filter((stop) => stop.driver_id === link.driver_id && stop.status !== 'planned').length;
  const heading = h(
    'p',
    { class: 'driver-link-head' },
    h('strong', {}, link.driver_name),
    h('span', { class: 'muted' }, ` · ${reported}/${link.stops} stops reported`),
    lateCount(dispatch.stops, link.driver_id),
  );
  const position = positionLine(link, Date.now());
  if (link.revoked || link.url === undefined) {
    return h(
      'li',
      {},
      heading,
      position,
      h('p', { class: 'muted' }, 'Link withdrawn: the driver page no longer opens.'),
      h(
        'div',
        { class: 'actions' },
        button('New link', () => actions.renew(link), { class: 'button small', 'aria-label': `New link for ${link.driver_name}` }),
      ),
    );
  }
  return h(
    'li',
    {},
    heading,
    position,
    h('p', {}, h('a', { href: link.url, target: '_blank', rel: 'noopener noreferrer' }, `Driver page: ${link.driver_name}`)),
    smsLine(link),
    h(
      'div',
      { class: 'actions' },
      button('Copy link', () => actions.copy(link), { class: 'button small', 'aria-label': `Copy link for ${link.driver_name}` }),
      button('Revoke', () => actions.revoke(link), {
        class: 'button small danger',
        'aria-label': `Revoke the link of ${link.driver_name}`,
      }),
      button('New link', () => actions.renew(link), { class: 'button small', 'aria-label': `New link for ${link.driver_name}` }),
    ),
    h('p', { class: 'hint' }, `Opens until ${formatMoment(link.expires_at)}.`),
  );
}

/** The phone's messaging app with the link already written (RFC 5724: the body is a query parameter). */
function smsLine(link: DriverLinkView): HTMLElement {
  if (!link.phone_number) return h('p', { class: 'hint' }, 'No phone number: send the link another way.');
  const body = `Your route for today: ${link.url}`;
  const href = `sms:${link.phone_number.replace(/[^\d+]/g, '')}?body=${encodeURIComponent(body)}`;
  return h('p', {}, h('a', { href }, `Send by SMS to ${link.phone_number}`));
}

/** Every dispatched stop with its driver, report and time, in route order. */
export function stopReports(project: Project, dispatch: DispatchView): HTMLTableElement {
  const stopName = new Map(project.stops.map((stop) => [stop.id, stop.name]));
  const driverName = new Map(project.drivers.map((driver) => [driver.id, driver.name]));
  return h(
    'table',
    { class: 'data' },
    h('caption', { class: 'visually-hidden' }, 'What the drivers reported for each stop'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Stop', 'Planned', 'Expected', 'Status', 'Driver', 'When', 'Reason', 'Proof', 'Promised to the customer'].map((name) =>
          h('th', { scope: 'col' }, name),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      ...dispatch.stops.map((stop) =>
        h(
          'tr',
          { 'data-stop-id': stop.stop_id },
          h('td', {}, stopName.get(stop.stop_id) ?? stop.stop_id),
          // Planned and expected side by side, first: what a dispatcher scans for during the day.
          h('td', {}, plannedCell(stop)),
          h('td', {}, ...expectedCell(stop)),
          h('td', {}, stopBadge(stop.status)),
          h('td', {}, driverName.get(stop.driver_id) ?? '—'),
          h('td', {}, stop.at ? formatMoment(stop.at) : '—'),
          h('td', {}, failureText(stop.reason_code, stop.reason)),
          h('td', {}, proofCell(stop.proof, stopName.get(stop.stop_id) ?? stop.stop_id)),
          customerCell(stop, stopName.get(stop.stop_id) ?? stop.stop_id),
        ),
      ),
    ),
  );
}

export function stopBadge(status: DispatchStopView['status']): HTMLSpanElement {
  const label = { planned: 'Planned', done: 'Done', failed: 'Failed' }[status];
  return h('span', { class: `badge badge-stop-${status}` }, label);
}

/** The customer e-mails sent for this project, or why there are none. */
export function messagesView(notifications: NotificationsView | undefined): HTMLElement {
  if (!notifications?.enabled) {
    return h('p', { class: 'muted' }, 'Customer e-mails are off: the service has no SMTP configured.');
  }
  if (notifications.messages.length === 0) {
    return h(
      'p',
      { class: 'muted' },
      'None yet. Stops with an e-mail address get their promised window and tracking link on dispatch, a revised window if the day runs off it, and a message when delivered.',
    );
  }
  return h('ul', { class: 'message-list' }, ...notifications.messages.map(messageItem));
}

/** What each message told the customer, as the outbox lists it. */
const MESSAGE_KINDS: Record<NotificationView['kind'], string> = { planned: 'Window', revised: 'Revised window', delivered: 'Delivered' };

function messageItem(message: NotificationView): HTMLLIElement {
  const state = { queued: 'Queued', sent: 'Sent', failed: 'Failed' }[message.status];
  const when = message.sent_at ?? message.created_at;
  return h(
    'li',
    {},
    h('span', { class: `badge badge-mail-${message.status}` }, state),
    ' ',
    h('strong', {}, message.to),
    h(
      'div',
      { class: 'muted' },
      `${MESSAGE_KINDS[message.kind] ?? message.kind}: ${message.subject} · ${formatMoment(when)}${message.attempts > 1 ? ` · ${message.attempts} attempts` : ''}`,
    ),
    message.error ? h('div', { class: 'detail' }, message.error) : null,
  );
}
