/**
 * The editor's fields (src/web/edit-fields.ts) turned into the API's merge patches: windows and
 * breaks written as text, numbers passed on as typed for the service to judge, only what changed
 * sent, and the service's error paths mapped back to the field that shows them.
 */
import { describe, expect, it } from 'vitest';
import { changedPatch, driverForm, fieldOfPath, projectForm, stopForm, withoutNulls } from '../../src/web/edit-fields.js';
import type { Project, ProjectStop } from '../../src/web/types.js';

const STOP: ProjectStop = {
  id: 's1',
  name: 'Mairie',
  location: { address: 'Place de la Comédie', coords: { lat: 45.767, lng: 4.836 } },
  time_windows: [{ start: '08:00', end: '10:00' }],
  duration: 5,
  load: { weight: 12 },
  types: ['fragile'],
};

describe('the stop form', () => {
  it('opens with the stop as text and, unchanged, sends nothing', () => {
    const form = stopForm(STOP);
    const values = form.valuesOf();
    expect(values).toMatchObject({
      address: 'Place de la Comédie',
      lat: '45.767',
      windows: '08:00-10:00',
      duration: '5',
      load: '',
      types: 'fragile',
    });
    expect(changedPatch(form.patchOf(values), form.patchOf(values))).toEqual({});
  });

  it('sends only the fields changed: one window as start/end, several as time_windows; a named load untouched', () => {
    const form = stopForm(STOP);
    const before = form.patchOf(form.valuesOf());
    const one = changedPatch(before, form.patchOf({ ...form.valuesOf(), windows: '09:00–11:30' }));
    // The stored time_windows go, or the stop would have both forms of window.
    expect(one).toEqual({ start: '09:00', end: '11:30', time_windows: null });
    const two = changedPatch(before, form.patchOf({ ...form.valuesOf(), windows: '08:00-10:00; 14:00-' }));
    expect(two).toEqual({ time_windows: [{ start: '08:00', end: '10:00' }, { start: '14:00' }] });
    const plain = stopForm({ id: 's2', name: 'Opéra', start: '08:00', end: '09:00' });
    const widened = changedPatch(
      plain.patchOf(plain.valuesOf()),
      plain.patchOf({ ...plain.valuesOf(), windows: '08:00-09:00; 13:00-14:00' }),
    );
    expect(widened).toEqual({
      start: null,
      end: null,
      time_windows: [
        { start: '08:00', end: '09:00' },
        { start: '13:00', end: '14:00' },
      ],
    });
    const typed = changedPatch(before, form.patchOf({ ...form.valuesOf(), duration: '7,5', priority: 'high', types: 'a; b' }));
    expect(typed).toEqual({ duration: 7.5, priority: 'high', types: ['a', 'b'] });
  });

  it('passes what does not read as a number on as typed, for the service to refuse with its message', () => {
    const form = stopForm(STOP);
    const patch = form.patchOf({ ...form.valuesOf(), duration: 'ten', lat: '' });
    expect(patch).toMatchObject({ duration: 'ten', location: { address: 'Place de la Comédie', coords: { lat: null, lng: 4.836 } } });
  });

  it('a new stop leaves out the empty fields', () => {
    const form = stopForm(undefined);
    const patch = withoutNulls(form.patchOf({ ...form.valuesOf(), name: 'Deli', lat: '45.7', lng: '4.8', windows: '08:00-09:00' }));
    expect(patch).toEqual({ name: 'Deli', location: { coords: { lat: 45.7, lng: 4.8 } }, start: '08:00', end: '09:00' });
  });
});

describe('the driver and project forms', () => {
  it('a driver’s break edits the first of its breaks and keeps the others', () => {
    const driver = {
      id: 'd',
      name: 'Ana',
      start_location: { coords: { lat: 1, lng: 2 } },
      breaks: [
        { start: '12:00', end: '12:30' },
        { start: '15:00', end: '15:10' },
      ],
    };
    const form = driverForm(driver);
    const patch = changedPatch(form.patchOf(form.valuesOf()), form.patchOf({ ...form.valuesOf(), break: '12:15-12:45' }));
    expect(patch).toEqual({
      breaks: [
        { start: '12:15', end: '12:45' },
        { start: '15:00', end: '15:10' },
      ],
    });
  });

  it('settings change one by one; an unticked flag is removed', () => {
    const project = {
      name: 'P',
      date: '2026-11-24',
      settings: { traffic: 1.2, strict_start: true, exclude_tolls: true },
    } as unknown as Project;
    const form = projectForm(project);
    const patch = changedPatch(
      form.patchOf(form.valuesOf()),
      form.patchOf({ ...form.valuesOf(), strict_start: false, default_duration: '4' }),
    );
    expect(patch).toEqual({ settings: { default_duration: 4, strict_start: null } });
  });
});

describe('error paths to fields', () => {
  const fields = stopForm(STOP).fields;
  it('maps a path of this item to the field showing it, the most precise first', () => {
    expect(fieldOfPath(fields, 'stops[2].location.coords.lng', 'stops[2]')).toBe('lng');
    expect(fieldOfPath(fields, 'stops[2].location', 'stops[2]')).toBe('address');
    expect(fieldOfPath(fields, 'stops[2].time_windows[1].end', 'stops[2]')).toBe('windows');
    expect(fieldOfPath(fields, 'stops[2].end', 'stops[2]')).toBe('windows');
  });

  it('leaves another item’s path and an unknown field to the form’s general message', () => {
    expect(fieldOfPath(fields, 'stops[3].duration', 'stops[2]')).toBeNull();
    expect(fieldOfPath(fields, 'stops[2].custom_notes', 'stops[2]')).toBeNull();
    expect(fieldOfPath(projectForm({ name: 'P', date: 'd', settings: {} } as unknown as Project).fields, 'settings.traffic', '')).toBe(
      'traffic',
    );
  });
});
