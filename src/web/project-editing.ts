/**
 * The project page's editing controls: Edit project, Add stop / Add driver, per row Edit, Place on
 * map and Delete, and the address fixes of the geocoding review (a candidate picked, a place
 * clicked). All go through the one ProjectEditor, so every change is versioned the same way.
 */
import { button, byId, h, reportError, type Child } from './dom.js';
import type { ItemList } from './edit-api.js';
import type { AddressFixes } from './geocoding-view.js';
import type { ProjectMap } from './map.js';
import { ProjectEditor } from './project-editor.js';
import type { RowEditing } from './project-data.js';
import type { Coords, GeocodingFailure, Project, ProjectDriver, ProjectLocation, ProjectStop, Session } from './types.js';

export interface ProjectEditing {
  stops: RowEditing<ProjectStop>;
  drivers: RowEditing<ProjectDriver>;
  fixes: AddressFixes;
}

type PlaceOnMap = (list: ItemList, id: string, field: string, label: string, current: ProjectLocation | undefined) => void;

/** Sets up the controls; `redraw` shows the project again after each saved (or fetched) version. */
export function startEditing(session: Session, project: Project, map: ProjectMap, redraw: () => void): ProjectEditing {
  const editor = new ProjectEditor(session, project, redraw);
  /** The location field `field` of an item placed at `coords`; its address (if any) is kept by the merge. */
  const placeAt = (list: ItemList, id: string, field: string, coords: Coords): Promise<void> =>
    editor.apply({ kind: 'change', list, id, patch: { [field]: { coords } } });
  const placeOnMap: PlaceOnMap = (list, id, field, label, current) =>
    map.place(label, current?.coords, (coords) => {
      placeAt(list, id, field, coords).catch(reportError);
    });

  byId('project-meta').after(
    h(
      'div',
      { class: 'edit-bar' },
      button('Edit project', () => editor.editProject(), { class: 'button small' }),
    ),
  );
  toolbar(
    'drivers',
    button('Add driver', () => editor.editDriver(), { class: 'button small' }),
  );
  toolbar(
    'stops',
    button('Add stop', () => editor.editStop(), { class: 'button small' }),
  );

  return {
    ...rowEditing(project, editor, placeOnMap),
    fixes: {
      // The PATCH carries the page's version: if the list was of a newer one, that is a 412 and the conflict view.
      pick: (shown, failure, candidate) => {
        const place = placeOf(shown, failure);
        if (place) placeAt(place.list, place.id, place.field, { lat: candidate.lat, lng: candidate.lng }).catch(reportError);
      },
      place: (shown, failure) => {
        const place = placeOf(shown, failure);
        if (place) placeOnMap(place.list, place.id, place.field, failure.stop, undefined);
      },
    },
  };
}

/** Per row: the name and Edit open the dialog, Place on map, Delete (after a confirm step); the item is looked up by id when pressed, so it is the current version's. */
function rowEditing(project: Project, editor: ProjectEditor, placeOnMap: PlaceOnMap): Pick<ProjectEditing, 'stops' | 'drivers'> {
  const editStop = (stop: ProjectStop): void => editor.editStop(itemOf<ProjectStop>(project, 'stops', stop.id));
  const editDriver = (driver: ProjectDriver): void => editor.editDriver(itemOf<ProjectDriver>(project, 'drivers', driver.id));
  return {
    stops: { open: editStop, actions: stopActions },
    drivers: { open: editDriver, actions: driverActions },
  };

  function stopActions(stop: ProjectStop): Child[] {
    return [
      button('Edit', () => editStop(stop), {
        class: 'button small',
        'aria-label': `Edit ${stop.name}`,
      }),
      button('Place on map', () => placeOnMap('stops', stop.id, 'location', stop.name, stop.location), {
        class: 'button small',
        'aria-label': `Place on map: ${stop.name}`,
      }),
      button('Delete', () => editor.confirmRemove('stops', stop), { class: 'button small danger', 'aria-label': `Delete ${stop.name}` }),
    ];
  }

  function driverActions(driver: ProjectDriver): Child[] {
    return [
      button('Edit', () => editDriver(driver), {
        class: 'button small',
        'aria-label': `Edit ${driver.name}`,
      }),
      button(
        'Place start on map',
        () => placeOnMap('drivers', driver.id, 'start_location', `${driver.name}: start`, driver.start_location),
        {
          class: 'button small',
          'aria-label': `Place start on map: ${driver.name}`,
        },
      ),
      button('Delete', () => editor.confirmRemove('drivers', driver), {
        class: 'button small danger',
        'aria-label': `Delete ${driver.name}`,
      }),
    ];
  }
}

function itemOf<T extends { id: string }>(project: Project, list: ItemList, id: string): T | undefined {
  return (project[list] as unknown as T[]).find((item) => item.id === id);
}

/** The item and field a geocoding failure names by its path (`stops[3].location`, `drivers[0].end_location`). */
function placeOf(project: Project, failure: GeocodingFailure): { list: ItemList; id: string; field: string } | null {
  const match = /^(stops|drivers)\[(\d+)\]\.(\w+)$/.exec(failure.path);
  if (!match) return null;
  const list = match[1] as ItemList;
  const item = project[list][Number(match[2])];
  return item ? { list, id: item.id, field: match[3]! } : null;
}

function toolbar(tableId: string, ...controls: HTMLElement[]): void {
  byId(tableId).before(h('div', { class: 'edit-bar' }, ...controls));
}
