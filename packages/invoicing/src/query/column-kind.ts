// Postgres types collapse into a handful of kinds: each kind has one coercion rule for query
// strings, one zod schema for bodies, one JSON Schema for OpenAPI and one set of allowed filters.
import type { GeneratedColumn } from '../registry/types.ts';

export type ColumnKind =
  | 'uuid'
  | 'text'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'timestamp'
  | 'time'
  | 'json'
  | 'array';

const KINDS: Record<string, ColumnKind> = {
  uuid: 'uuid',
  text: 'text',
  varchar: 'text',
  bpchar: 'text',
  citext: 'text',
  name: 'text',
  inet: 'text',
  int2: 'integer',
  int4: 'integer',
  int8: 'integer',
  numeric: 'number',
  float4: 'number',
  float8: 'number',
  bool: 'boolean',
  date: 'date',
  timestamptz: 'timestamp',
  timestamp: 'timestamp',
  time: 'time',
  timetz: 'time',
  jsonb: 'json',
  json: 'json',
};

export function columnKind(column: Pick<GeneratedColumn, 'type'>): ColumnKind {
  if (column.type.startsWith('_')) return 'array';
  return KINDS[column.type] ?? 'text';
}

/** The element kind of an array column ('_text' → text, '_uuid' → uuid). */
export function elementKind(column: Pick<GeneratedColumn, 'type'>): ColumnKind {
  return columnKind({ type: column.type.replace(/^_/, '') });
}

export const isDateLike = (kind: ColumnKind) => kind === 'date' || kind === 'timestamp';
