// Turns a list request's query string into a ListQuery, checking every name against the
// resource's columns and every value against its column's type. Pure: no SQL, no I/O.
import { HttpError } from '../../../edge/mod.ts';
import type { GeneratedColumn, Resource, SortKey } from '../registry/types.ts';
import { coerceBoolean, coerceForColumn, coerceInteger, isIsoDate, invalidParam, type Scalar } from './coerce.ts';
import { columnKind, isDateLike, type ColumnKind } from './column-kind.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, type Filter, type FilterOp, type ListQuery } from './list-query.ts';

/** Parameters with a meaning of their own; never read as column filters. */
export const RESERVED_PARAMS = new Set([
  'limit', 'per_page', 'offset', 'page', 'sort', 'order', 'dir', 'search',
  'from', 'to', 'date_field', 'select', 'count',
  // the gateway accepts the API key as a query parameter too
  'apikey',
]);

export const SUFFIXES: FilterOp[] = ['neq', 'gt', 'gte', 'lt', 'lte', 'like', 'starts', 'ends', 'in', 'null'];

const ALL_OPS: ReadonlySet<FilterOp> = new Set<FilterOp>(['eq', ...SUFFIXES]);

/** Which filter operators make sense for which kind of column (a new kind must choose). */
export const OPS_BY_KIND: Record<ColumnKind, ReadonlySet<FilterOp>> = {
  uuid: ALL_OPS,
  text: ALL_OPS,
  integer: ALL_OPS,
  number: ALL_OPS,
  date: ALL_OPS,
  timestamp: ALL_OPS,
  time: ALL_OPS,
  boolean: new Set<FilterOp>(['eq', 'neq', 'in', 'null']),
  json: new Set<FilterOp>(['eq', 'neq', 'null']),
  // array columns: eq = contains the element, neq = does not, in = shares any element
  array: new Set<FilterOp>(['eq', 'neq', 'in', 'null']),
};

function columnOf(resource: Resource, name: string): GeneratedColumn | undefined {
  return resource.columns.find((c) => c.name === name);
}

function requireColumn(resource: Resource, name: string, param: string): GeneratedColumn {
  const column = columnOf(resource, name);
  if (!column) throw new HttpError(400, `Unknown column '${name}' in query parameter '${param}'`);
  return column;
}

/** `status__in` → {column: status, op: in}; a key without a known suffix is an exact match. */
export function splitFilterKey(key: string): { column: string; op: FilterOp } {
  const at = key.lastIndexOf('__');
  if (at > 0) {
    const suffix = key.slice(at + 2) as FilterOp;
    if (SUFFIXES.includes(suffix)) return { column: key.slice(0, at), op: suffix };
  }
  return { column: key, op: 'eq' };
}

function parseFilter(resource: Resource, key: string, raw: string): Filter {
  const { column: name, op } = splitFilterKey(key);
  const column = columnOf(resource, name);
  if (!column) throw new HttpError(400, `Unknown query parameter '${key}': '${resource.path}' has no column '${name}'`);
  const kind = columnKind(column);
  if (!OPS_BY_KIND[kind].has(op)) {
    throw new HttpError(400, `Query parameter '${key}': filter '${op}' does not apply to ${kind} column '${name}'`);
  }
  switch (op) {
    case 'null':
      return { column: name, op, value: coerceBoolean(raw, key) };
    case 'in': {
      const parts = raw.split(',').filter((p) => p.trim() !== '');
      if (parts.length === 0) throw invalidParam(key, 'a comma-separated list of values');
      if (parts.length > 1000) throw invalidParam(key, 'at most 1000 values');
      return { column: name, op, value: parts.map((p) => coerceForColumn(column, p, key)) };
    }
    case 'like':
    case 'starts':
    case 'ends':
      // a text pattern, whatever the column's type (the builder compares the column as text)
      return { column: name, op, value: raw };
    default:
      return { column: name, op, value: coerceForColumn(column, raw, key) };
  }
}

function parseSort(resource: Resource, params: URLSearchParams): SortKey[] | null {
  const sort = params.get('sort');
  if (sort !== null && sort.trim() !== '') {
    const keys: SortKey[] = [];
    for (const part of sort.split(',')) {
      const token = part.trim();
      if (!token) continue;
      const desc = token.startsWith('-');
      const name = token.replace(/^[-+]/, '');
      requireColumn(resource, name, 'sort');
      if (!keys.some((k) => k.column === name)) keys.push({ column: name, desc });
    }
    if (keys.length) return keys;
  }
  const order = params.get('order');
  if (order !== null && order.trim() !== '') {
    const name = order.trim();
    requireColumn(resource, name, 'order');
    const dir = (params.get('dir') ?? 'asc').trim().toLowerCase();
    if (dir !== 'asc' && dir !== 'desc') throw invalidParam('dir', 'asc or desc');
    return [{ column: name, desc: dir === 'desc' }];
  }
  const dir = params.get('dir');
  if (dir !== null && !['asc', 'desc'].includes(dir.trim().toLowerCase())) throw invalidParam('dir', 'asc or desc');
  return null;
}

/** The final order: the requested (or default) keys, then `id` so pages never overlap. */
function withTieBreak(resource: Resource, keys: SortKey[]): SortKey[] {
  const valid = keys.filter((k) => columnOf(resource, k.column));
  if (!valid.some((k) => k.column === 'id') && columnOf(resource, 'id')) valid.push({ column: 'id', desc: false });
  return valid;
}

function parseSelect(resource: Resource, params: URLSearchParams): string[] | null {
  const select = params.get('select');
  if (select === null || select.trim() === '' || select.trim() === '*') return null;
  const names: string[] = [];
  for (const part of select.split(',')) {
    const name = part.trim();
    if (!name) continue;
    requireColumn(resource, name, 'select');
    if (!names.includes(name)) names.push(name);
  }
  return names.length ? names : null;
}

/** The day after a YYYY-MM-DD date: `to` is inclusive, so timestamps compare `< to + 1 day`. */
export function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function parseDateRange(resource: Resource, params: URLSearchParams): Filter[] {
  const from = params.get('from');
  const to = params.get('to');
  const fieldParam = params.get('date_field');
  const fieldName = fieldParam?.trim() || 'date';
  const hasRange = (from !== null && from !== '') || (to !== null && to !== '');
  if (!hasRange && fieldParam === null) return [];

  const column = columnOf(resource, fieldName);
  if (!column) {
    throw fieldParam !== null
      ? new HttpError(400, `Unknown column '${fieldName}' in query parameter 'date_field'`)
      : new HttpError(400, `Query parameter 'from'/'to': '${resource.path}' has no 'date' column; name one with 'date_field'`);
  }
  const kind = columnKind(column);
  if (!isDateLike(kind)) throw new HttpError(400, `Query parameter 'date_field': column '${fieldName}' is not a date or timestamp`);

  const filters: Filter[] = [];
  for (const [param, value] of [['from', from], ['to', to]] as const) {
    if (value === null || value === '') continue;
    if (!isIsoDate(value.trim())) throw invalidParam(param, 'a date (YYYY-MM-DD)');
    const day = value.trim();
    if (param === 'from') filters.push({ column: fieldName, op: 'gte', value: day });
    else if (kind === 'date') filters.push({ column: fieldName, op: 'lte', value: day });
    else filters.push({ column: fieldName, op: 'lt', value: nextDay(day) });
  }
  return filters;
}

function parseCount(params: URLSearchParams): boolean {
  const count = params.get('count');
  if (count === null || count === '') return true;
  const value = count.trim().toLowerCase();
  if (value === 'none') return false;
  if (value === 'exact') return true;
  throw invalidParam('count', "'none' (or 'exact')");
}

function parsePaging(params: URLSearchParams): Pick<ListQuery, 'limit' | 'offset' | 'page'> {
  const limitParam = params.has('limit') && params.get('limit') !== '' ? 'limit' : 'per_page';
  const rawLimit = params.get(limitParam);
  const limit = rawLimit === null || rawLimit === '' ? DEFAULT_LIMIT : coerceInteger(rawLimit, limitParam, 1, MAX_LIMIT);

  const rawOffset = params.get('offset');
  const rawPage = params.get('page');
  let offset = 0;
  if (rawOffset !== null && rawOffset !== '') {
    offset = coerceInteger(rawOffset, 'offset', 0);
  } else if (rawPage !== null && rawPage !== '') {
    const page = coerceInteger(rawPage, 'page', 1);
    offset = (page - 1) * limit;
    if (!Number.isSafeInteger(offset)) throw invalidParam('page', 'a smaller page number');
  }
  return { limit, offset, page: Math.floor(offset / limit) + 1 };
}

/**
 * Parses a list request. `fixed` adds filters the route imposes (e.g. invoice_id for
 * /invoices/:id/items) on top of the client's.
 */
export function parseListQuery(resource: Resource, params: URLSearchParams, fixed: Filter[] = []): ListQuery {
  const filters: Filter[] = [...fixed];
  for (const [key, value] of params) {
    if (RESERVED_PARAMS.has(key)) continue;
    filters.push(parseFilter(resource, key, value));
  }
  filters.push(...parseDateRange(resource, params));
  const search = params.get('search');
  return {
    ...parsePaging(params),
    sort: withTieBreak(resource, parseSort(resource, params) ?? resource.defaultSort),
    select: parseSelect(resource, params),
    count: parseCount(params),
    filters,
    search: search !== null && search.trim() !== '' ? search.trim() : null,
  };
}

export type { Scalar };
