// Query-string values are text; each is checked against its column's kind before it reaches SQL,
// so a bad number, date, boolean or uuid is the client's 400 (naming the parameter), not a
// database cast error. Values stay strings where Postgres parses them exactly (numeric, dates):
// money is never turned into a float on the way in.
import { HttpError } from '../../../edge/mod.ts';
import type { GeneratedColumn } from '../registry/types.ts';
import { columnKind, elementKind, type ColumnKind } from './column-kind.ts';

export type Scalar = string | boolean;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^[+-]?\d{1,18}$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/i;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?([+-]\d{2}(:?\d{2})?)?$/;

export const isUuid = (value: string) => UUID.test(value);

/** A real calendar date in YYYY-MM-DD (rejects 2025-02-30). */
export function isIsoDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function isTimestamp(value: string): boolean {
  return TIMESTAMP.test(value) && isIsoDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value.replace(' ', 'T')));
}

const BOOLEANS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false, t: true, f: false };

const EXPECTED: Record<ColumnKind, string> = {
  uuid: 'a uuid',
  text: 'text',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  date: 'a date (YYYY-MM-DD)',
  timestamp: 'a date or an ISO 8601 timestamp',
  time: 'a time (HH:MM[:SS])',
  json: 'JSON',
  array: 'a value',
};

export function invalidParam(param: string, expected: string): HttpError {
  return new HttpError(400, `Invalid value for query parameter '${param}': expected ${expected}`);
}

/** Coerces one text value to `kind`; throws a 400 naming `param`. */
export function coerceScalar(kind: ColumnKind, raw: string, param: string): Scalar {
  const value = raw.trim();
  switch (kind) {
    case 'uuid':
      if (isUuid(value)) return value.toLowerCase();
      break;
    case 'integer':
      if (INTEGER.test(value)) return value;
      break;
    case 'number':
      if (NUMBER.test(value) && Number.isFinite(Number(value))) return value;
      break;
    case 'boolean': {
      const b = BOOLEANS[value.toLowerCase()];
      if (b !== undefined) return b;
      break;
    }
    case 'date':
      if (isIsoDate(value)) return value;
      break;
    case 'timestamp':
      if (isTimestamp(value)) return value;
      break;
    case 'time':
      if (TIME.test(value)) return value;
      break;
    case 'json':
      try {
        return JSON.stringify(JSON.parse(raw));
      } catch {
        break;
      }
    default:
      // text keeps its exact spelling, spaces included
      return raw;
  }
  throw invalidParam(param, EXPECTED[kind]);
}

/** Coerces a filter value for `column`; array columns are matched by element. */
export function coerceForColumn(column: GeneratedColumn, raw: string, param: string): Scalar {
  const kind = columnKind(column);
  return coerceScalar(kind === 'array' ? elementKind(column) : kind, raw, param);
}

/** A boolean flag value (`__null=true`, `low_stock=false`). */
export function coerceBoolean(raw: string, param: string): boolean {
  return coerceScalar('boolean', raw, param) as boolean;
}

/** A whole number ≥ min; values above `max` are clamped to it (page sizes cap, they don't fail). */
export function coerceInteger(raw: string, param: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = raw.trim();
  if (!/^\+?\d+$/.test(value)) throw invalidParam(param, min > 0 ? `a positive integer` : `a non-negative integer`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw invalidParam(param, `an integer ≥ ${min}`);
  return Math.min(n, max);
}
