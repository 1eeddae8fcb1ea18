/**
 * The zod schemas are the one list of field names: a field added to a schema is known (no
 * unknown-field warning), is a CSV column under its own name when it holds one value, and is
 * carried to the plan when marked `carried`.
 */
import { describe, expect, it } from 'vitest';
import { entriesFromTable } from '../../src/input/csv-tables.js';
import type { TableRole } from '../../src/input/csv-tables.js';
import { ONEOFF_FIELDS, PROJECT_FIELDS, unknownFieldWarnings } from '../../src/input/known-fields.js';
import { PathNamer } from '../../src/input/paths.js';
import { orderSchema, routeSchema } from '../../src/input/schema/oneoff.js';
import { driverSchema, stopSchema } from '../../src/input/schema/project.js';
import type { FieldSchema } from '../../src/input/schema/vocabulary.js';
import { carriedKeys, cellReading, fieldsOf } from '../../src/input/schema/vocabulary.js';

const TABLE_SCHEMAS: [TableRole, FieldSchema, string[]][] = [
  ['stops', stopSchema, []],
  ['drivers', driverSchema, []],
  ['ordersData', orderSchema, []],
  ['routesData', routeSchema, []],
  ['routesData', fieldsOf(routeSchema)!.constraints!, ['constraints']],
];

describe('one field vocabulary, read from the schemas', () => {
  it('the carried fields are those of decisions.md, in the order the plan shows them', () => {
    expect(carriedKeys(stopSchema)).toEqual(['notes', 'custom_notes', 'phone_number', 'email', 'driver', 'sequence']);
    expect(carriedKeys(driverSchema)).toEqual(['phone_number']);
    expect(carriedKeys(orderSchema)).toEqual(['displayOrderId', 'customerOrderNumber']);
    expect(carriedKeys(routeSchema)).toEqual([]);
  });

  it('every field of an entry schema is known; anything else is warned about', () => {
    const stop = { ...Object.fromEntries(Object.keys(fieldsOf(stopSchema)!).map((key) => [key, 1])), bogus: 1 };
    const order = { ...Object.fromEntries(Object.keys(fieldsOf(orderSchema)!).map((key) => [key, 1])), bogus: 1 };
    const namer = new PathNamer();
    expect(unknownFieldWarnings({ stops: [stop] }, PROJECT_FIELDS, namer).map((w) => w.path)).toEqual(['stops[0].bogus']);
    expect(unknownFieldWarnings({ ordersData: [order] }, ONEOFF_FIELDS, namer).map((w) => w.path)).toEqual(['ordersData[0].bogus']);
  });

  it('every field holding one value is a CSV column under its own name, read as its schema types it', () => {
    for (const [role, schema, under] of TABLE_SCHEMAS) {
      for (const [key, field] of Object.entries(fieldsOf(schema)!)) {
        const reading = cellReading(field);
        if (reading === null || reading === 'windows') continue;
        const { entries } = entriesFromTable({ header: [key], records: [{ row: 2, cells: ['12'] }], delimiter: ',' }, role, 't.csv');
        const expected = reading === 'number' ? 12 : reading === 'list' ? ['12'] : '12';
        const value = [...under, key].reduce<unknown>((node, step) => (node as Record<string, unknown>)[step], entries[0]);
        expect(value, `${role} column ${key}`).toEqual(expected);
      }
    }
  });
});
