/**
 * Drag a stop on the timeline: its service bar, carried with the pointer to another driver's row
 * or another time, goes to that driver's route before the first of their stops that starts later.
 * Pointer events, so that it works with a mouse, a pen or a finger; "Move to…" in the itineraries
 * does the same from the keyboard.
 */
import type { Plan } from '../output/plan-types.js';

/** Where a point of the chart is: the time under an x, the route's row under a y (-1 for none). */
export interface TimelineGeometry {
  secondsAt(x: number): number;
  routeAt(y: number): number;
}

export type TimelineDrop = (stopIndex: number, to: { routeAt: number; position: number }) => void;

/** Pointer travel (in chart units) below which a press is a click, not a drag. */
const DRAG_THRESHOLD = 4;

export function enableTimelineDrag(chart: SVGSVGElement, plan: Plan, geometry: TimelineGeometry, onDrop: TimelineDrop): void {
  chart.addEventListener('pointerdown', (down) => {
    const bar = (down.target as Element).closest<SVGRectElement>('rect[data-stop-index]');
    if (!bar || down.button !== 0) return;
    down.preventDefault();
    const stopIndex = Number(bar.dataset.stopIndex);
    const start = chartPoint(chart, down);
    bar.setPointerCapture(down.pointerId);
    bar.classList.add('dragging');
    const onMove = (move: PointerEvent): void => {
      const at = chartPoint(chart, move);
      bar.setAttribute('transform', `translate(${at.x - start.x} ${at.y - start.y})`);
    };
    const onUp = (up: PointerEvent): void => {
      bar.removeEventListener('pointermove', onMove);
      bar.removeEventListener('pointerup', onUp);
      bar.removeAttribute('transform');
      bar.classList.remove('dragging');
      const at = chartPoint(chart, up);
      if (Math.hypot(at.x - start.x, at.y - start.y) < DRAG_THRESHOLD) return;
      const routeAt = geometry.routeAt(at.y);
      if (routeAt < 0) return;
      onDrop(stopIndex, { routeAt, position: placeAt(plan, routeAt, stopIndex, geometry.secondsAt(at.x)) });
    };
    bar.addEventListener('pointermove', onMove);
    bar.addEventListener('pointerup', onUp);
  });
}

/** The stops of the route that start before `seconds`, the dragged one left out. */
function placeAt(plan: Plan, routeAt: number, stopIndex: number, seconds: number): number {
  const visits = plan.routes[routeAt]!.visits.flatMap((visit) => (visit.kind === 'stop' && visit.stop_index !== stopIndex ? [visit] : []));
  return visits.filter((visit) => (visit.start_s ?? -Infinity) < seconds).length;
}

function chartPoint(chart: SVGSVGElement, event: PointerEvent): { x: number; y: number } {
  const matrix = chart.getScreenCTM();
  if (!matrix) return { x: event.clientX, y: event.clientY };
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  return { x: point.x, y: point.y };
}
