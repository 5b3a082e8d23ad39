// postgres_changes filters: `col=op.value`, several joined by commas (AND), each optionally
// negated with `not.`. Operators are the ones Realtime accepts: eq neq lt lte gt gte in is like
// ilike. Values are PostgREST-quoted by realtime-js's filter builder when they contain `,()"\`
// or surrounding spaces, so the parser honours double quotes and backslash escapes.
//
// Matching runs against the text values logical replication delivers, compared by the column's
// type where text order would lie (numbers, timestamps, uuids, booleans).

export type Operator = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'is' | 'like' | 'ilike';

export interface Condition {
  column: string;
  op: Operator;
  negate: boolean;
  /** One value, or the list of `in.(…)`; `null` stands for the literal `null` of `is.null`. */
  values: (string | null)[];
}

export class FilterError extends Error {}

const OPERATORS = new Set<Operator>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'is', 'like', 'ilike']);
const NUMERIC_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid', 'money']);
const TIME_TYPES = new Set(['timestamp', 'timestamptz', 'date']);

/** Splits on `sep` outside double quotes and parentheses. */
function splitTopLevel(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === sep && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    return v.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return v;
}

/** Parses a filter string; empty or missing means "no filter". Throws FilterError. */
export function parseFilter(filter: string | null | undefined): Condition[] {
  if (filter == null || filter.trim() === '') return [];
  return splitTopLevel(filter, ',').map((part) => {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new FilterError(`malformed filter condition "${part}": expected column=operator.value`);
    const column = part.slice(0, eq).trim();
    let rest = part.slice(eq + 1);
    let negate = false;
    if (rest.startsWith('not.')) {
      negate = true;
      rest = rest.slice(4);
    }
    const dot = rest.indexOf('.');
    const op = (dot < 0 ? rest : rest.slice(0, dot)) as Operator;
    if (dot < 0 || !OPERATORS.has(op)) {
      throw new FilterError(`unsupported operator in filter condition "${part}"`);
    }
    const raw = rest.slice(dot + 1);
    if (op === 'in') {
      if (!raw.startsWith('(') || !raw.endsWith(')')) {
        throw new FilterError(`"in" needs a parenthesised list: "${part}"`);
      }
      const inner = raw.slice(1, -1);
      if (inner.trim() === '') throw new FilterError(`"in" needs at least one value: "${part}"`);
      return { column, op, negate, values: splitTopLevel(inner, ',').map((v) => unquote(v.trim())) };
    }
    if (op === 'is') {
      const v = raw.toLowerCase();
      if (!['null', 'true', 'false', 'unknown'].includes(v)) {
        throw new FilterError(`"is" accepts null, true, false or unknown: "${part}"`);
      }
      return { column, op, negate, values: [v === 'null' || v === 'unknown' ? null : v] };
    }
    return { column, op, negate, values: [unquote(raw)] };
  });
}

/** Type-aware comparison key for one value; undefined when the value cannot be ordered as such. */
function comparable(type: string, value: string): number | string | undefined {
  if (NUMERIC_TYPES.has(type)) {
    const n = Number(value.replace(/[$,]/g, ''));
    return Number.isNaN(n) ? undefined : n;
  }
  if (TIME_TYPES.has(type)) {
    // Postgres text output "2026-01-01 12:00:00.5+00" → something Date.parse reads.
    const iso = value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
    const t = Date.parse(iso);
    return Number.isNaN(t) ? value : t;
  }
  if (type === 'bool') return /^(t|true|y|yes|on|1)$/i.test(value) ? 't' : 'f';
  if (type === 'uuid') return value.toLowerCase();
  return value;
}

function compare(type: string, a: string, b: string): number | undefined {
  const x = comparable(type, a);
  const y = comparable(type, b);
  if (x === undefined || y === undefined || typeof x !== typeof y) return undefined;
  return x < y ? -1 : x > y ? 1 : 0;
}

function likeToRegExp(pattern: string, flags: string): RegExp {
  const body = pattern.replace(/[.+?^${}()|[\]\\*]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.');
  return new RegExp(`^${body}$`, flags);
}

function test(c: Condition, type: string, value: string | null | undefined): boolean {
  if (c.op === 'is') {
    const want = c.values[0];
    if (want === null) return value == null;
    return value != null && comparable('bool', value) === comparable('bool', want);
  }
  // SQL semantics: a comparison with NULL is never true (also not under `not.`).
  if (value == null) return false;
  const v = value;
  switch (c.op) {
    case 'eq':
      return compare(type, v, c.values[0]!) === 0;
    case 'neq': {
      const r = compare(type, v, c.values[0]!);
      return r !== undefined && r !== 0;
    }
    case 'lt':
      return (compare(type, v, c.values[0]!) ?? 0) < 0;
    case 'lte': {
      const r = compare(type, v, c.values[0]!);
      return r !== undefined && r <= 0;
    }
    case 'gt':
      return (compare(type, v, c.values[0]!) ?? 0) > 0;
    case 'gte': {
      const r = compare(type, v, c.values[0]!);
      return r !== undefined && r >= 0;
    }
    case 'in':
      return c.values.some((x) => x !== null && compare(type, v, x) === 0);
    case 'like':
      return likeToRegExp(c.values[0]!, '').test(v);
    case 'ilike':
      return likeToRegExp(c.values[0]!, 'i').test(v);
  }
}

/**
 * True when every condition holds for `record` (text values keyed by column); `typeOf` gives a
 * column's type name (pg_type.typname).
 */
export function matchesFilter(
  conditions: Condition[],
  record: Record<string, string | null | undefined>,
  typeOf: (column: string) => string,
): boolean {
  return conditions.every((c) => {
    if (!(c.column in record)) return false;
    const hit = test(c, typeOf(c.column), record[c.column]);
    // `not.` negates a definite answer only; a NULL value still matches nothing.
    return c.negate ? record[c.column] != null && !hit : hit;
  });
}
