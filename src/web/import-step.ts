/**
 * One spreadsheet of the "New project" form: its first rows with a select per column (the
 * service's guess, which the person can correct), then the rows with problems — each cell fixed
 * in place or the row left out. Every reading is the service's (POST /v1.0/imports/…), so the
 * page knows no rule of its own and shows the CLI's messages.
 */
import { convertRows, inspectSpreadsheet } from './api.js';
import { h } from './dom.js';
import type { ConvertedRows, ImportRole, ImportRow, InspectedTable, RowProblem } from '../input/import-types.js';
import type { Session } from './types.js';

const PREVIEW_ROWS = 5;

const WORDS: Record<ImportRole, { one: string; many: string }> = {
  stops: { one: 'stop', many: 'stops' },
  drivers: { one: 'driver', many: 'drivers' },
};

/** What the table gives the project: its items, the row of each, and what still stops the import. */
export interface ImportResult {
  items: Record<string, unknown>[];
  rows: number[];
  blocking: string[];
}

export interface StepHooks {
  /** Says something to screen readers (the form's status line). */
  announce: (text: string) => void;
  /** The names of the project's drivers so far, against which the stops' locks are checked. */
  driverNames?: () => string[];
  /** The rows were read again (a new file, a changed column or cell). */
  onConverted?: () => void;
}

export class ImportStep {
  private table: InspectedTable | null = null;
  private fileName = '';
  private columns: (string | null)[] = [];
  /** Rows whose cells the person edited: row → cells. */
  private readonly edited = new Map<number, string[]>();
  private readonly leftOut = new Set<number>();
  private converted: ConvertedRows | null = null;
  private pending: Promise<void> | null = null;
  /** Answers to an older mapping are dropped: only the latest request's answer is shown. */
  private generation = 0;

  constructor(
    private readonly session: Session,
    private readonly role: ImportRole,
    private readonly box: HTMLElement,
    private readonly hooks: StepHooks,
  ) {}

  private announce(text: string): void {
    this.hooks.announce(text);
  }

  /** The project's drivers changed: stops locked to a driver (a `driver` column) are checked again. */
  driversChanged(): void {
    if (this.table && this.columns.includes('driver')) void this.convert();
  }

  get file(): string {
    return this.fileName;
  }

  get loaded(): boolean {
    return this.table !== null;
  }

  async load(file: File): Promise<void> {
    this.clear();
    this.fileName = file.name;
    this.box.replaceChildren(h('p', { class: 'muted' }, `Reading ${file.name}…`));
    try {
      this.table = await inspectSpreadsheet(this.session, this.role, file);
    } catch (error) {
      this.fileName = '';
      const message = error instanceof Error ? error.message : String(error);
      this.box.replaceChildren(h('p', { class: 'alert', role: 'alert' }, `${file.name} could not be read: ${message}`));
      return;
    }
    this.columns = [...this.table.guesses];
    this.announce(`${file.name}: ${this.table.rows.length} rows read. Check what each column is.`);
    await this.convert();
  }

  clear(): void {
    const had = this.table !== null;
    this.generation++;
    this.table = null;
    this.fileName = '';
    this.converted = null;
    this.pending = null;
    this.edited.clear();
    this.leftOut.clear();
    this.box.replaceChildren();
    if (had) this.hooks.onConverted?.();
  }

  /** Waits for the answer to the latest change (a select or a cell changed just before "Import"). */
  async settled(): Promise<void> {
    while (this.pending) {
      const waiting = this.pending;
      await waiting;
      if (waiting === this.pending) return;
    }
  }

  result(): ImportResult {
    if (!this.table) return { items: [], rows: [], blocking: [] };
    if (!this.converted) return { items: [], rows: [], blocking: [`${this.fileName} is still being read`] };
    const blocking = this.converted.problems
      .filter((problem) => problem.row === null || !this.leftOut.has(problem.row))
      .map((problem) => `${problem.path}: ${problem.message}${problem.row === null ? '' : ' — fix the cell or leave the row out'}`);
    const kept = this.converted.items.filter(({ row }) => !this.leftOut.has(row));
    return { items: kept.map(({ item }) => item), rows: kept.map(({ row }) => row), blocking };
  }

  private rows(): ImportRow[] {
    return this.table!.rows.map(({ row, cells }) => ({ row, cells: this.edited.get(row) ?? cells }));
  }

  private convert(): Promise<void> {
    const table = this.table!;
    const generation = ++this.generation;
    const request = {
      file: this.fileName,
      delimiter: table.delimiter,
      header: table.header,
      columns: this.columns,
      rows: this.rows(),
      ...(this.hooks.driverNames ? { driver_names: this.hooks.driverNames() } : {}),
    };
    const run = convertRows(this.session, this.role, request).then(
      (converted) => {
        if (generation !== this.generation) return;
        this.converted = converted;
        this.render();
        this.hooks.onConverted?.();
      },
      (error: unknown) => {
        if (generation !== this.generation) return;
        const message = error instanceof Error ? error.message : String(error);
        this.box.append(h('p', { class: 'alert', role: 'alert' }, `The rows could not be read: ${message}`));
      },
    );
    this.pending = run;
    return run;
  }

  /** Draws the step again, keeping the focus on the control that had it (ids are stable). */
  private render(): void {
    const focused = this.box.contains(document.activeElement) ? document.activeElement!.id : null;
    this.box.replaceChildren(this.preview(), this.problems());
    if (focused === null) return;
    // A fixed row's cell is gone: the focus goes to the summary, which says what is left.
    (document.getElementById(focused) ?? document.getElementById(this.id('summary')))?.focus();
  }

  private id(part: string): string {
    return `${this.role}-import-${part}`;
  }

  private preview(): HTMLElement {
    const table = this.table!;
    const rows = this.rows().slice(0, PREVIEW_ROWS);
    const count = table.rows.length;
    return h(
      'div',
      { class: 'import-preview' },
      h('p', { class: 'import-file' }, h('strong', {}, this.fileName), ` — ${count} ${count === 1 ? 'row' : 'rows'}`),
      h('p', { class: 'hint', id: this.id('hint') }, 'Check what each column is read as; “Leave out” skips the column.'),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'data compact import-table' },
          h('caption', { class: 'visually-hidden' }, `First rows of ${this.fileName}, with what each column is read as`),
          h('thead', {}, h('tr', {}, ...table.header.map((name, c) => this.columnHead(name, c)))),
          h('tbody', {}, ...rows.map(({ cells }) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
        ),
      ),
      count > PREVIEW_ROWS ? h('p', { class: 'hint' }, `The first ${PREVIEW_ROWS} of ${count} rows.`) : null,
    );
  }

  private columnHead(name: string, c: number): HTMLTableCellElement {
    const table = this.table!;
    const current = this.columns[c] ?? '';
    const choices = [...table.columns];
    // A column the CLI reads that the list does not offer (load_weight) keeps its own name.
    if (current !== '' && !choices.some(({ column }) => column === current))
      choices.push({ column: current, label: `${current} (as named)` });
    const select = h(
      'select',
      { id: this.id(`column-${c}`), 'aria-describedby': this.id('hint') },
      h('option', { value: '' }, 'Leave out'),
      ...choices.map(({ column, label }) => h('option', { value: column, selected: column === current }, label)),
    );
    select.addEventListener('change', () => {
      this.columns[c] = select.value === '' ? null : select.value;
      void this.convert();
    });
    return h(
      'th',
      { scope: 'col' },
      h('span', { class: 'column-name' }, name),
      h('label', { class: 'visually-hidden', for: select.id }, `Column “${name}” is read as`),
      select,
    );
  }

  private problems(): HTMLElement {
    const converted = this.converted!;
    const words = WORDS[this.role];
    const tableProblems = converted.problems.filter((problem) => problem.row === null);
    const byRow = new Map<number, RowProblem[]>();
    for (const problem of converted.problems) {
      if (problem.row !== null) byRow.set(problem.row, [...(byRow.get(problem.row) ?? []), problem]);
    }
    const kept = converted.items.filter(({ row }) => !this.leftOut.has(row)).length;
    const unresolved = [...byRow.keys()].filter((row) => !this.leftOut.has(row)).length;
    const summary =
      unresolved > 0 || tableProblems.length > 0
        ? `${unresolved} ${unresolved === 1 ? 'row has' : 'rows have'} problems: fix them or leave them out.`
        : `${kept} ${kept === 1 ? words.one : words.many} ready to import.`;
    return h(
      'div',
      { class: 'import-problems' },
      ...tableProblems.map((problem) => h('p', { class: 'alert' }, problem.message)),
      h(
        'p',
        { class: `import-summary ${unresolved > 0 || tableProblems.length > 0 ? 'warn' : 'ok'}`, id: this.id('summary'), tabindex: -1 },
        summary,
      ),
      // What the reading noticed without refusing anything (decimal commas read as points).
      ...converted.warnings.map((warning) => h('p', { class: 'hint import-warning' }, `Note: ${warning.message}.`)),
      byRow.size > 0
        ? h(
            'ul',
            { class: 'problem-rows' },
            ...[...byRow].sort(([a], [b]) => a - b).map(([row, problems]) => this.problemRow(row, problems)),
          )
        : null,
    );
  }

  private problemRow(row: number, problems: RowProblem[]): HTMLLIElement {
    const table = this.table!;
    const cells = this.rows().find((candidate) => candidate.row === row)?.cells ?? [];
    const out = this.leftOut.has(row);
    const leave = h('input', { type: 'checkbox', id: this.id(`leave-${row}`), checked: out });
    leave.addEventListener('change', () => {
      if (leave.checked) this.leftOut.add(row);
      else this.leftOut.delete(row);
      this.render();
      this.announce(leave.checked ? `Row ${row} left out.` : `Row ${row} will be imported.`);
    });
    return h(
      'li',
      { class: out ? 'problem-row left-out' : 'problem-row' },
      h('h4', {}, `Row ${row}`, cells[0] ? h('span', { class: 'muted' }, ` · ${cells[0]}`) : null),
      ...problems.map((problem, p) => this.problemCell(row, problem, p, table.header.indexOf(problem.column ?? ''), cells)),
      h('div', { class: 'leave-out' }, leave, h('label', { for: leave.id }, `Leave out row ${row}`)),
    );
  }

  private problemCell(row: number, problem: RowProblem, p: number, column: number, cells: string[]): HTMLElement {
    const messageId = this.id(`message-${row}-${p}`);
    const message = h('p', { class: 'field-error', id: messageId }, problem.message);
    if (column < 0) return message;
    const input = h('input', {
      type: 'text',
      id: this.id(`cell-${row}-${column}`),
      value: cells[column] ?? '',
      'aria-describedby': messageId,
      'aria-invalid': 'true',
    });
    input.addEventListener('change', () => {
      const edited = [...cells];
      edited[column] = input.value;
      this.edited.set(row, edited);
      void this.convert().then(() => this.announceRow(row));
    });
    return h('div', { class: 'problem-cell' }, h('label', { for: input.id }, `Row ${row}, ${problem.column}`), input, message);
  }

  private announceRow(row: number): void {
    const still = this.converted?.problems.some((problem) => problem.row === row);
    this.announce(still ? `Row ${row} still has a problem.` : `Row ${row} fixed.`);
  }
}
