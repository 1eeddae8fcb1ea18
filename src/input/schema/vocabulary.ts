/**
 * The zod schemas are the one list of field names: the unknown-field check, the CSV columns and
 * the fields carried to the output are read from them here, so a field is added in its schema
 * only (decisions.md "Unknown and extra fields").
 */
import { z } from 'zod';

export type FieldSchema = z.ZodType;

/** A field's own schema, without the optional/nullable wrapper every optional field has. */
function unwrapped(schema: FieldSchema): FieldSchema {
  let inner: FieldSchema = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as FieldSchema;
  return inner;
}

/** The fields of an object schema, in their written order; null for any other schema. */
export function fieldsOf(schema: FieldSchema): Record<string, FieldSchema> | null {
  const inner = unwrapped(schema);
  return inner instanceof z.ZodObject ? inner.shape : null;
}

/** The item schema of a list schema; null for any other schema. */
export function itemOf(schema: FieldSchema): FieldSchema | null {
  const inner = unwrapped(schema);
  return inner instanceof z.ZodArray ? (inner.element as FieldSchema) : null;
}

/** The schema at a dotted path inside an entry (`location.coords.lat`, `locations.0.latitude`). */
export function schemaAt(entry: FieldSchema, path: readonly string[]): FieldSchema | null {
  let schema: FieldSchema | null = entry;
  for (const key of path) {
    if (schema === null) return null;
    schema = /^\d+$/.test(key) ? itemOf(schema) : (fieldsOf(schema)?.[key] ?? null);
  }
  return schema;
}

/** Where a carried field goes among its entry's carried fields: the plan keeps this key order. */
const carriedFields = z.registry<{ position: number }>();

/** Marks a field the plan carries through to the output unchanged (decisions.md). */
export function carried<T extends FieldSchema>(position: number, schema: T): T {
  carriedFields.add(schema, { position });
  return schema;
}

/** The carried fields of an entry schema, in their output order. */
export function carriedKeys(entry: FieldSchema): string[] {
  return Object.entries(fieldsOf(entry) ?? {})
    .flatMap(([key, schema]) => {
      const meta = carriedFields.get(schema);
      return meta ? [{ key, position: meta.position }] : [];
    })
    .sort((a, b) => a.position - b.position)
    .map(({ key }) => key);
}

function isCarried(schema: FieldSchema): boolean {
  return carriedFields.has(schema);
}

/** A union with a branch of this kind (`load`: a number or an object of named numbers). */
function unionWith(schema: FieldSchema, kind: typeof z.ZodNumber | typeof z.ZodRecord): boolean {
  return schema instanceof z.ZodUnion && (schema.options as FieldSchema[]).some((option) => option instanceof kind);
}

/**
 * How a CSV cell is read for a field: texts and carried fields as text (an order id `007` stays
 * `007`), numbers and "number or word" fields (priority, speed) as a number when the text reads
 * as one, labels as a `;`-separated list, and a list of objects as `;`-separated windows
 * `08:00-10:00` of its first two fields. Null for objects, which have no column of their own.
 */
export type CellReading = 'text' | 'number' | 'list' | 'windows';

export function cellReading(schema: FieldSchema): CellReading | null {
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodString) return 'text';
  if (inner instanceof z.ZodNumber) return 'number';
  if (unionWith(inner, z.ZodNumber)) return isCarried(schema) ? 'text' : 'number';
  if (inner instanceof z.ZodPipe && inner.out instanceof z.ZodArray && inner.out.element instanceof z.ZodString) return 'list';
  const item = itemOf(inner);
  return item !== null && fieldsOf(item) !== null ? 'windows' : null;
}

/** A field of named numbers (`load`, `capacity`: a number or {weight: 12}) or of free-form values (`custom_notes`). */
export function freeKeysOf(schema: FieldSchema): 'numbers' | 'texts' | null {
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodRecord) return 'texts';
  return unionWith(inner, z.ZodRecord) ? 'numbers' : null;
}
