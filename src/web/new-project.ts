/**
 * "New project" on the project list: name, date and settings, the stops and drivers spreadsheets
 * (import-step.ts), drivers typed in the form for a dispatcher with a stops file only, and
 * "Import", which creates the project (POST /v1.0/project: the service validates it again and
 * geocodes its addresses) and opens its page.
 */
import { ApiError, createProject } from './api.js';
import { byId, h, hiddenText } from './dom.js';
import { ImportStep } from './import-step.js';
import type { Session } from './types.js';

/** Number settings, by the id of their field; empty fields are left out. */
const NUMBER_SETTINGS: Record<string, string> = {
  'setting-default-duration': 'default_duration',
  'setting-default-load': 'default_load',
  'setting-traffic': 'traffic',
  'setting-max-lateness': 'max_stop_lateness',
  'setting-max-overtime': 'max_driver_overtime',
};

const FLAG_SETTINGS: Record<string, string> = {
  'setting-strict-start': 'strict_start',
  'setting-auto-balance': 'auto_balance',
  'setting-shortest-distance': 'shortest_distance',
};

/** Coordinates typed as "45.76, 4.83"; anything else is an address for the service to geocode. */
const COORDINATES = /^\s*(-?\d+(?:\.\d+)?)\s*[,;]\s*(-?\d+(?:\.\d+)?)\s*$/;

export class NewProjectForm {
  private readonly stops: ImportStep;
  private readonly drivers: ImportStep;
  private driverCount = 0;

  constructor(private readonly session: Session) {
    const announce = (text: string) => this.status(text);
    this.stops = new ImportStep(session, 'stops', byId('stops-import'), { announce, driverNames: () => this.driverNames() });
    this.drivers = new ImportStep(session, 'drivers', byId('drivers-import'), {
      announce,
      onConverted: () => this.stops.driversChanged(),
    });
    this.bindFile('stops-file', this.stops);
    this.bindFile('drivers-file', this.drivers);
    byId('add-driver').addEventListener('click', () => this.addDriver());
    byId<HTMLFormElement>('new-project-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
  }

  /** Opens the form: today's date unless one is set, the focus on its heading. */
  show(): void {
    const date = byId<HTMLInputElement>('project-date');
    if (date.value === '') date.value = localToday();
    byId('new-project-title').focus();
  }

  private bindFile(id: string, step: ImportStep): void {
    const input = byId<HTMLInputElement>(id);
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      if (!file) {
        step.clear();
        return;
      }
      const name = byId<HTMLInputElement>('project-name');
      // A name to start from, so that a right guess imports with one press.
      if (step === this.stops && name.value.trim() === '') name.value = file.name.replace(/\.[^.]+$/, '');
      void step.load(file);
    });
  }

  private addDriver(): void {
    const n = ++this.driverCount;
    const field = (key: string, label: string, attributes: Record<string, string> = {}) => {
      const id = `form-driver-${n}-${key}`;
      const input = h('input', { id, type: 'text', 'data-key': key, ...attributes });
      // "Driver 2 Name" for a screen reader; the eye sees the legend "Driver 2" above.
      return h('div', { class: 'field' }, h('label', { for: id }, hiddenText(`Driver ${n} `), label), input);
    };
    const item = h(
      'li',
      { class: 'form-driver' },
      h(
        'fieldset',
        {},
        h('legend', {}, `Driver ${n}`),
        h(
          'div',
          { class: 'field-grid' },
          field('name', 'Name', { autocomplete: 'off' }),
          field('start', 'Start (address, or latitude, longitude)'),
          field('shift_start', 'Shift start', { type: 'time' }),
          field('shift_end', 'Shift end', { type: 'time' }),
          field('capacity', 'Capacity', { type: 'number', min: '0', step: 'any', inputmode: 'decimal' }),
        ),
      ),
    );
    const remove = h('button', { type: 'button', class: 'button small' }, `Remove driver ${n}`);
    remove.addEventListener('click', () => {
      item.remove();
      this.stops.driversChanged();
      byId('add-driver').focus();
      this.status(`Driver ${n} removed.`);
    });
    item.querySelector('fieldset')!.append(remove);
    item.querySelector('input[data-key="name"]')!.addEventListener('change', () => this.stops.driversChanged());
    byId('form-drivers').append(item);
    item.querySelector('input')!.focus();
  }

  /** Every driver's name so far, from the drivers spreadsheet and the form. */
  private driverNames(): string[] {
    return [...this.drivers.result().items, ...this.formDrivers()].flatMap((driver) =>
      typeof driver.name === 'string' ? [driver.name] : [],
    );
  }

  private formDrivers(): Record<string, unknown>[] {
    return [...byId('form-drivers').querySelectorAll('li')].map((item) => {
      const value = (key: string) => item.querySelector<HTMLInputElement>(`input[data-key="${key}"]`)!.value.trim();
      const driver: Record<string, unknown> = { name: value('name') };
      const start = value('start');
      const coords = COORDINATES.exec(start);
      if (coords) driver.start_location = { coords: { lat: Number(coords[1]), lng: Number(coords[2]) } };
      else if (start !== '') driver.start_location = { address: start };
      if (value('shift_start') !== '') driver.shift_start = value('shift_start');
      if (value('shift_end') !== '') driver.shift_end = value('shift_end');
      if (value('capacity') !== '') driver.capacity = Number(value('capacity'));
      return driver;
    });
  }

  private settings(): Record<string, unknown> {
    const settings: Record<string, unknown> = {};
    for (const [id, key] of Object.entries(NUMBER_SETTINGS)) {
      const text = byId<HTMLInputElement>(id).value.trim();
      // A number field with text the browser cannot read gives "": the service then says what is allowed.
      if (text !== '') settings[key] = Number(text);
    }
    for (const [id, key] of Object.entries(FLAG_SETTINGS)) if (byId<HTMLInputElement>(id).checked) settings[key] = true;
    return settings;
  }

  private async submit(): Promise<void> {
    const button = byId<HTMLButtonElement>('import-button');
    this.showErrors([]);
    button.disabled = true;
    try {
      await Promise.all([this.stops.settled(), this.drivers.settled()]);
      const stops = this.stops.result();
      const drivers = this.drivers.result();
      const formErrors = this.formErrors();
      const blocking = [...formErrors, ...stops.blocking, ...drivers.blocking];
      if (blocking.length > 0) {
        this.status('');
        this.showErrors(blocking);
        return;
      }
      this.status('Creating the project…');
      const project = await createProject(this.session, {
        name: byId<HTMLInputElement>('project-name').value.trim(),
        date: byId<HTMLInputElement>('project-date').value,
        drivers: [...drivers.items, ...this.formDrivers()],
        stops: stops.items,
        settings: this.settings(),
      });
      this.status('Project created. Opening it…');
      location.assign(`/projects/${encodeURIComponent(project.id)}`);
    } catch (error) {
      this.status('');
      this.showErrors(this.explain(error, this.stops.result().rows, this.drivers.result().rows));
    } finally {
      button.disabled = false;
    }
  }

  private formErrors(): string[] {
    const errors: string[] = [];
    if (byId<HTMLInputElement>('project-name').value.trim() === '') errors.push('Name: give the project a name.');
    if (byId<HTMLInputElement>('project-date').value === '') errors.push('Date: choose the day of the deliveries.');
    if (!this.stops.loaded && !this.drivers.loaded && this.formDrivers().length === 0) {
      errors.push('Stops spreadsheet: choose the file of the stops (or add drivers to make an empty project).');
    }
    return errors;
  }

  /** The service's 400 names `stops[3].end`: said again by the spreadsheet row it came from. */
  private explain(error: unknown, stopRows: number[], driverRows: number[]): string[] {
    if (!(error instanceof ApiError)) return [error instanceof Error ? error.message : String(error)];
    if (error.error.details.length === 0) return [error.message];
    return error.error.details.map(({ path, message }) => {
      const place = /^(stops|drivers)\[(\d+)\]/.exec(path);
      if (!place) return `${path}: ${message}`;
      const index = Number(place[2]);
      const step = place[1] === 'stops' ? this.stops : this.drivers;
      const rows = place[1] === 'stops' ? stopRows : driverRows;
      if (index < rows.length) return `${step.file} row ${rows[index]} (${path}): ${message}`;
      return `Driver ${index - rows.length + 1} added here (${path}): ${message}`;
    });
  }

  private showErrors(errors: string[]): void {
    const box = byId('new-project-error');
    box.hidden = errors.length === 0;
    if (errors.length === 0) {
      box.replaceChildren();
      return;
    }
    box.replaceChildren(
      h(
        'p',
        {},
        h(
          'strong',
          {},
          errors.length === 1 ? 'The project cannot be imported yet:' : `The project cannot be imported yet (${errors.length} problems):`,
        ),
      ),
      h('ul', {}, ...errors.map((text) => h('li', {}, text))),
    );
    box.focus();
  }

  private status(text: string): void {
    byId('import-status').textContent = text;
  }
}

/** Today in the browser's own time zone, as a date input wants it. */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
