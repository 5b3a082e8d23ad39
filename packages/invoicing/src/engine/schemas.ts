// Zod schemas generated from the registry: the one source for body validation (here) and for
// the request and row schemas of the OpenAPI document (openapi.ts, via z.toJSONSchema).
import { z } from 'zod';
import type { GeneratedColumn, Resource } from '../registry/types.ts';
import { columnKind, elementKind, type ColumnKind } from '../query/column-kind.ts';

const NUMERIC_STRING = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Set by the service or the database, never by a client. */
export const SERVER_COLUMNS = new Set(['company_id', 'created_at', 'updated_at']);

/** What a value of each kind must look like, in words (error messages and docs). */
export const EXPECTATION: Record<ColumnKind, string> = {
  uuid: 'a uuid',
  text: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  date: 'a date (YYYY-MM-DD)',
  timestamp: 'an ISO 8601 timestamp',
  time: 'a time (HH:MM:SS)',
  json: 'JSON',
  array: 'an array',
};

function numberSchema(col: GeneratedColumn, direction: 'input' | 'output'): z.ZodType {
  let n = z.number();
  // numeric(p,s) holds less than 10^(p-s): say so up front instead of a database range error
  if (col.precision !== undefined && col.scale !== undefined && col.type === 'numeric') {
    const bound = 10 ** (col.precision - col.scale);
    n = n.gt(-bound).lt(bound);
  }
  // money may be sent as a decimal string to avoid any float rounding on the client's side
  return direction === 'input' ? z.union([n, z.string().regex(NUMERIC_STRING)]) : n;
}

function scalarSchema(kind: ColumnKind, col: GeneratedColumn, direction: 'input' | 'output'): z.ZodType {
  switch (kind) {
    case 'uuid':
      return z.guid();
    case 'integer':
      return col.type === 'int8' ? z.number().int() : z.number().int().min(-2147483648).max(2147483647);
    case 'number':
      return numberSchema(col, direction);
    case 'boolean':
      return z.boolean();
    case 'date':
      return z.iso.date();
    case 'timestamp':
      return direction === 'input' ? z.union([z.iso.datetime({ offset: true, local: true }), z.iso.date()]) : z.string();
    case 'time':
      return z.string().regex(/^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/);
    case 'json':
      return z.unknown();
    default: {
      if (col.enumValues?.length) return z.enum(col.enumValues as [string, ...string[]]);
      const s = z.string();
      return col.maxLength ? s.max(col.maxLength) : s;
    }
  }
}

export function columnSchema(col: GeneratedColumn, direction: 'input' | 'output' = 'input'): z.ZodType {
  const kind = columnKind(col);
  const schema =
    kind === 'array'
      ? z.array(scalarSchema(elementKind(col), { ...col, type: col.type.slice(1), enumValues: undefined }, direction))
      : scalarSchema(kind, col, direction);
  return col.nullable && kind !== 'json' ? schema.nullable() : schema;
}

/** Columns a client may send: `id` on create only; never server or generated columns. */
export function writableColumns(resource: Resource, mode: 'create' | 'patch'): GeneratedColumn[] {
  return resource.columns.filter(
    (c) => !c.generated && !SERVER_COLUMNS.has(c.name) && (mode === 'create' || c.name !== 'id'),
  );
}

export const isRequiredOnCreate = (c: GeneratedColumn) => !c.nullable && !c.hasDefault && !c.generated;

const cache = new WeakMap<Resource, Record<string, z.ZodObject>>();

/** The body schema of a POST (create) or PATCH of `resource`. */
export function bodySchema(resource: Resource, mode: 'create' | 'patch'): z.ZodObject {
  let entry = cache.get(resource);
  if (!entry) cache.set(resource, (entry = {}));
  if (!entry[mode]) {
    const shape: Record<string, z.ZodType> = {};
    for (const col of writableColumns(resource, mode)) {
      const s = columnSchema(col).describe(EXPECTATION[columnKind(col)]);
      shape[col.name] = mode === 'create' && isRequiredOnCreate(col) ? s : s.optional();
    }
    entry[mode] = z.object(shape).strict();
  }
  return entry[mode];
}

/** A row as the API returns it: every column. */
export function rowSchema(resource: Resource): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const col of resource.columns) shape[col.name] = columnSchema(col, 'output');
  return z.object(shape);
}
