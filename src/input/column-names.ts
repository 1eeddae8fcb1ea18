/**
 * The one table of column names a spreadsheet of stops or drivers may use: for each field a
 * dispatcher maps a column to, the CLI's own column and the words people write in its place
 * ("Customer", "Street address", "From", "Qty"). The CLI's CSV tables accept every synonym
 * (csv-tables.ts reads this table), and the page's import guesses from the same table, so the
 * two cannot drift. Synonyms are compared like every column name: case, spaces and punctuation
 * do not matter ("Street-Address" is "street address").
 */

import type { ImportRole } from './import-types.js';

export interface ColumnChoice {
  /** The column as the CLI names it (fixtures/csv/*.csv). */
  column: string;
  /** What the page's select shows. */
  label: string;
  /** Other words for the same column; the CLI's own spellings (latitude, tags, phone…) need no entry. */
  synonyms: readonly string[];
}

const PHONE = ['telephone', 'tel', 'mobile', 'cell', 'phone no'];

const STOP_COLUMNS: readonly ColumnChoice[] = [
  { column: 'name', label: 'Name', synonyms: ['customer', 'client', 'customer name', 'client name', 'stop name', 'company'] },
  { column: 'address', label: 'Address', synonyms: ['street', 'street address', 'full address', 'delivery address', 'addr'] },
  { column: 'lat', label: 'Latitude', synonyms: [] },
  { column: 'lng', label: 'Longitude', synonyms: [] },
  { column: 'start', label: 'Window start', synonyms: ['from', 'opening', 'opens', 'window start', 'earliest', 'ready time'] },
  { column: 'end', label: 'Window end', synonyms: ['until', 'till', 'closing', 'closes', 'window end', 'latest', 'due time'] },
  { column: 'time_windows', label: 'Time windows (08:00-10:00;13:00-15:00)', synonyms: ['windows', 'time window', 'opening hours'] },
  {
    column: 'duration',
    label: 'Service time (minutes)',
    synonyms: ['minutes', 'mins', 'service time', 'service minutes', 'service duration', 'stop duration'],
  },
  { column: 'load', label: 'Load', synonyms: ['qty', 'quantity', 'demand', 'units', 'parcels'] },
  { column: 'priority', label: 'Priority', synonyms: ['importance'] },
  { column: 'types', label: 'Types (a;b)', synonyms: ['type', 'skills', 'requirements'] },
  { column: 'phone_number', label: 'Phone', synonyms: PHONE },
  { column: 'email', label: 'Email', synonyms: ['e-mail', 'email address', 'mail'] },
  { column: 'notes', label: 'Notes', synonyms: ['note', 'comment', 'comments', 'instructions', 'remarks'] },
  { column: 'driver', label: 'Locked to driver', synonyms: [] },
  { column: 'sequence', label: 'Sequence (with a driver)', synonyms: [] },
];

const DRIVER_COLUMNS: readonly ColumnChoice[] = [
  { column: 'name', label: 'Name', synonyms: ['driver', 'driver name', 'vehicle', 'courier'] },
  { column: 'start_address', label: 'Start address', synonyms: ['depot', 'depot address', 'start place'] },
  { column: 'start_lat', label: 'Start latitude', synonyms: ['depot lat', 'depot latitude'] },
  { column: 'start_lng', label: 'Start longitude', synonyms: ['depot lng', 'depot lon', 'depot longitude'] },
  { column: 'end_address', label: 'End address', synonyms: ['end place', 'return address'] },
  { column: 'end_lat', label: 'End latitude', synonyms: [] },
  { column: 'end_lng', label: 'End longitude', synonyms: [] },
  { column: 'shift_start', label: 'Shift start', synonyms: ['from', 'start time', 'starts', 'working from'] },
  { column: 'shift_end', label: 'Shift end', synonyms: ['until', 'till', 'end time', 'ends', 'working until'] },
  { column: 'capacity', label: 'Capacity', synonyms: ['max load', 'vehicle capacity'] },
  { column: 'speed', label: 'Speed', synonyms: [] },
  { column: 'types', label: 'Types (a;b)', synonyms: ['type', 'skills'] },
  { column: 'break_start', label: 'Break start', synonyms: ['lunch start', 'pause start'] },
  { column: 'break_end', label: 'Break end', synonyms: ['lunch end', 'pause end'] },
  { column: 'phone_number', label: 'Phone', synonyms: PHONE },
];

export const COLUMN_CHOICES: Record<ImportRole, readonly ColumnChoice[]> = { stops: STOP_COLUMNS, drivers: DRIVER_COLUMNS };
