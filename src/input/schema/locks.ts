/**
 * Locks (pins) of project stops (decisions.md "Editing a project and re-planning the day"): a
 * stop's `driver` names the one driver who may serve it, and `sequence` orders the stops locked
 * to one driver. A lock names a driver of the same project, so it is checked against the whole
 * document, not the stop alone.
 */
import { z } from 'zod';
import { show } from '../paths.js';
import { allowed } from './fields.js';
import { isPlainObject } from '../shape.js';

const SEQUENCE_ALLOWED = 'a whole number ≥ 1 (its place among the stops locked to the same driver)';
export const sequence = z.number(allowed(SEQUENCE_ALLOWED)).int(allowed(SEQUENCE_ALLOWED)).min(1, allowed(SEQUENCE_ALLOWED));

/** A sequence orders the stops of one driver: without a driver it would order nothing. */
export const sequenceNeedsDriver = {
  path: ['sequence'],
  message: 'is given without driver; a sequence orders the stops locked to one driver: give driver too, or remove sequence',
  // Checked even when other fields of the stop are wrong, so that every error shows at once.
  when: (payload: { value: unknown }) => isPlainObject(payload.value),
};

export function sequenceWithoutDriver(stop: { driver?: unknown; sequence?: unknown }): boolean {
  return stop.sequence != null && stop.driver == null;
}

/** Shown names at most: a project of 500 drivers would otherwise print them all in one message. */
const NAMES_SHOWN = 10;

/** Each stop's `driver` must name exactly one driver of the project. */
export function checkLockedDrivers(doc: unknown, ctx: z.RefinementCtx): void {
  if (!isPlainObject(doc) || !Array.isArray(doc.stops)) return;
  const names = Array.isArray(doc.drivers) ? doc.drivers.map((driver) => (isPlainObject(driver) ? driver.name : undefined)) : [];
  doc.stops.forEach((stop, i) => {
    if (!isPlainObject(stop) || typeof stop.driver !== 'string') return;
    const message = lockMessage(stop.driver, names);
    if (message) ctx.addIssue({ code: 'custom', path: ['stops', i, 'driver'], message, input: stop.driver });
  });
}

/** What is wrong with a lock to `driver`, or null when it names exactly one of the drivers' `names`. */
function lockMessage(driver: string, names: readonly unknown[]): string | null {
  const matches = names.flatMap((name, index) => (name === driver ? [index] : []));
  if (matches.length === 1) return null;
  if (matches.length > 1) {
    const where = matches.map((index) => `drivers[${index}]`).join(', ');
    return `${show(driver)} names ${matches.length} drivers (${where}); give the drivers distinct names to lock a stop to one of them`;
  }
  const given = names.filter((name): name is string => typeof name === 'string');
  if (given.length === 0)
    return `${show(driver)} is not allowed; the project has no driver to lock the stop to: add the driver, or remove driver`;
  const shown = given.slice(0, NAMES_SHOWN).map((name) => show(name));
  const more = given.length > NAMES_SHOWN ? ` (and ${given.length - NAMES_SHOWN} more)` : '';
  return `${show(driver)} is not allowed; use the name of one of the project's drivers: ${shown.join(', ')}${more}`;
}
