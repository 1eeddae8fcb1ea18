/**
 * Drag and drop of stops in the itineraries: a stop's row (`data-stop-id`) dropped on another
 * row goes before it (after it on the row's lower half), dropped elsewhere on an itinerary
 * (`data-driver-id`) it goes last. Listeners sit on the container, so re-rendered itineraries
 * need no new ones. "Move to…" does the same from the keyboard.
 */
import type { Destination } from './plan-draft.js';

const STOP_TYPE = 'application/x-routeplan-stop';

export function enableItineraryDrag(container: HTMLElement, onDrop: (stopId: string, to: Destination) => void): void {
  let dragged: string | null = null;
  container.addEventListener('dragstart', (event) => {
    const row = (event.target as Element).closest<HTMLElement>('[data-stop-id]');
    if (!row || !event.dataTransfer) return;
    dragged = row.dataset.stopId ?? null;
    event.dataTransfer.setData(STOP_TYPE, dragged ?? '');
    event.dataTransfer.setData('text/plain', row.querySelector('td:nth-child(2)')?.textContent ?? '');
    event.dataTransfer.effectAllowed = 'move';
    row.classList.add('dragging');
  });
  container.addEventListener('dragend', () => {
    dragged = null;
    container
      .querySelectorAll('.dragging, .drop-before, .drop-after')
      .forEach((element) => element.classList.remove('dragging', 'drop-before', 'drop-after'));
  });
  container.addEventListener('dragover', (event) => {
    const target = dropTarget(event);
    if (dragged === null || !target) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
    container.querySelectorAll('.drop-before, .drop-after').forEach((element) => element.classList.remove('drop-before', 'drop-after'));
    target.row?.classList.add(target.after ? 'drop-after' : 'drop-before');
  });
  container.addEventListener('drop', (event) => {
    const target = dropTarget(event);
    const stopId = dragged ?? event.dataTransfer?.getData(STOP_TYPE) ?? '';
    if (!target || stopId === '') return;
    event.preventDefault();
    onDrop(stopId, { driverId: target.driverId, position: positionOf(target, stopId) });
  });
}

interface DropTarget {
  driverId: string;
  itinerary: HTMLElement;
  row: HTMLElement | null;
  after: boolean;
}

function dropTarget(event: DragEvent): DropTarget | null {
  const element = event.target as Element;
  const itinerary = element.closest<HTMLElement>('[data-driver-id]');
  if (!itinerary) return null;
  const row = element.closest<HTMLElement>('tr[data-stop-id]');
  const box = row?.getBoundingClientRect();
  return { driverId: itinerary.dataset.driverId!, itinerary, row, after: box !== undefined && event.clientY > box.top + box.height / 2 };
}

/** The place among the route's stops, counted without the dragged stop itself (it leaves its place first). */
function positionOf(target: DropTarget, stopId: string): number {
  const all = [...target.itinerary.querySelectorAll<HTMLElement>('tr[data-stop-id]')];
  // Dropped on itself: it stays where it is.
  if (target.row?.dataset.stopId === stopId) return all.indexOf(target.row);
  const rows = all.filter((row) => row.dataset.stopId !== stopId);
  if (!target.row) return rows.length;
  const at = rows.indexOf(target.row);
  if (at === -1) return rows.length;
  return at + (target.after ? 1 : 0);
}
