/** What the dispatcher sees of a stop's customer side: the window promised, and the customer's tracking page. */
import { h } from './dom.js';
import { clockOf } from './driver-view.js';
import type { DispatchStopView } from './types.js';

/** "08:30–09:45 · Tracking page", for the Stop progress table; the link opens the customer's page as they see it. */
export function customerCell(stop: DispatchStopView, stopName: string): HTMLTableCellElement {
  const promised = stop.promised ? `${clockOf(stop.promised.start_s)}–${clockOf(stop.promised.end_s)}` : 'no time promised';
  const link = stop.tracking_url
    ? h(
        'a',
        { href: stop.tracking_url, target: '_blank', rel: 'noopener noreferrer', 'aria-label': `Tracking page: ${stopName}` },
        'Tracking page',
      )
    : null;
  return h('td', { class: 'customer-promise' }, promised, link ? ' · ' : null, link);
}
