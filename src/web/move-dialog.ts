/**
 * "Move to…": the keyboard's way to move a stop (drag and drop is the pointer's). A modal dialog
 * with the driver and the place on their route; Enter moves, Escape (or Cancel) closes without a
 * move, and focus goes back to the button that opened it, or to what the caller names after a move.
 */
import { h } from './dom.js';
import type { Destination } from './plan-draft.js';

export interface MoveChoice {
  stopName: string;
  drivers: { id: string; name: string; stops: number }[];
  /** Where the stop is now (null: on no route). */
  from: { driverId: string; position: number } | null;
}

/** Value of the driver list's entry that takes the stop off every route. */
const UNSERVED = '';

/** Opens the dialog; `onMove` gets the destination chosen (it is not called on Escape or Cancel). */
export function openMoveDialog(choice: MoveChoice, opener: HTMLElement, onMove: (to: Destination) => void): void {
  const driver = h('select', { id: 'move-driver' });
  driver.append(
    ...choice.drivers.map((entry) => h('option', { value: entry.id }, entry.name)),
    h('option', { value: UNSERVED }, 'Unserved (on no route)'),
  );
  driver.value = choice.from?.driverId ?? choice.drivers[0]?.id ?? UNSERVED;
  const position = h('select', { id: 'move-position' });
  const fillPositions = (): void => fillPlaces(position, choice, driver.value);
  driver.addEventListener('change', fillPositions);
  fillPositions();
  const form = h(
    'form',
    { method: 'dialog', class: 'move-form' },
    h('h2', { id: 'move-title' }, `Move ${choice.stopName}`),
    h('p', { class: 'muted' }, 'The plan is re-timed at once; nothing is kept until you press Save plan.'),
    h('div', { class: 'field' }, h('label', { for: 'move-driver' }, 'Driver'), driver),
    h('div', { class: 'field' }, h('label', { for: 'move-position' }, 'Position on the route'), position),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', value: 'move', class: 'button primary' }, 'Move'),
      h('button', { type: 'submit', value: 'cancel', class: 'button', formnovalidate: true }, 'Cancel'),
    ),
  );
  const dialog = h('dialog', { class: 'move-dialog', 'aria-labelledby': 'move-title' }, form);
  // Enter in a list moves too (a form submits on Enter from a text field only).
  form.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.target instanceof HTMLButtonElement) return;
    event.preventDefault();
    dialog.close('move');
  });
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (dialog.returnValue !== 'move') {
      opener.focus();
      return;
    }
    onMove(driver.value === UNSERVED ? { driverId: null } : { driverId: driver.value, position: Number(position.value) });
  });
  document.body.append(dialog);
  dialog.showModal();
  driver.focus();
}

/** The places on the chosen driver's route: before each of their stops, and last. */
function fillPlaces(select: HTMLSelectElement, choice: MoveChoice, driverId: string): void {
  const target = choice.drivers.find((entry) => entry.id === driverId);
  select.disabled = target === undefined;
  if (target === undefined) {
    select.replaceChildren(h('option', { value: '0' }, '—'));
    return;
  }
  // On its own route the stop leaves its place first: one place fewer.
  const same = choice.from?.driverId === driverId;
  const places = target.stops + (same ? 0 : 1);
  select.replaceChildren(
    ...Array.from({ length: places }, (_, i) => h('option', { value: String(i) }, i === places - 1 ? `${i + 1} (last)` : String(i + 1))),
  );
  select.value = String(same ? choice.from!.position : places - 1);
}
