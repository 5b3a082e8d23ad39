// ListQuery → SQL with postgres.js fragments. Column names reach SQL only through sql(name), and
// only after query-parser.ts has matched them against the registry; values are always parameters.
// Rows are encoded to JSON by Postgres (json_agg): numeric money arrives as exact JSON numbers,
// and the text is passed to the client without being parsed and re-serialised.
import type { Sql, TransactionSql } from '../../../edge/mod.ts';
import type { GeneratedColumn, Resource, SortKey } from '../registry/types.ts';
import { columnKind } from './column-kind.ts';
import type { Filter, ListQuery } from './list-query.ts';

type AnySql = Sql | TransactionSql;
// postgres.js fragments are PendingQuery objects; their exact generic type does not matter here
// deno-lint-ignore no-explicit-any
export type Fragment = any;

export const SCHEMA = 'invoicing';

export const tableRef = (sql: AnySql, resource: Resource): Fragment => sql(`${SCHEMA}.${resource.table}`);

function join(sql: AnySql, parts: Fragment[], separator: 'and' | 'or' | ','): Fragment {
  return parts.reduce((acc, part, i) =>
    i === 0 ? part : separator === ',' ? sql`${acc}, ${part}` : separator === 'and' ? sql`${acc} and ${part}` : sql`${acc} or ${part}`,
  );
}

/** LIKE metacharacters in a client's term match themselves. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function column(resource: Resource, name: string): GeneratedColumn {
  const found = resource.columns.find((c) => c.name === name);
  // the parser already refused unknown names; reaching this is a bug, not a client error
  if (!found) throw new Error(`column ${name} is not in the registry of ${resource.path}`);
  return found;
}

/** The column as text, for pattern matches on non-text columns. */
function asText(sql: AnySql, col: GeneratedColumn): Fragment {
  return columnKind(col) === 'text' ? sql(col.name) : sql`${sql(col.name)}::text`;
}

/** Array columns are compared with an array literal of the column's own type. */
function arrayLiteral(values: unknown[]): string {
  return `{${values.map((v) => `"${String(v).replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

function condition(sql: AnySql, resource: Resource, f: Filter): Fragment {
  const col = column(resource, f.column);
  const id = sql(col.name);
  const kind = columnKind(col);
  const v = f.value as string | boolean;
  if (kind === 'array') {
    switch (f.op) {
      case 'eq': return sql`${v} = any(${id})`;
      case 'neq': return sql`not coalesce(${v} = any(${id}), false)`;
      case 'in': return sql`${id} && ${arrayLiteral(f.value as string[])}`;
    }
  }
  if (kind === 'json') {
    switch (f.op) {
      case 'eq': return sql`${id} = ${v}::jsonb`;
      case 'neq': return sql`${id} is distinct from ${v}::jsonb`;
    }
  }
  switch (f.op) {
    case 'eq': return sql`${id} = ${v}`;
    // "not equal" keeps rows where the column is empty: null is not the excluded value
    case 'neq': return sql`${id} is distinct from ${v}`;
    case 'gt': return sql`${id} > ${v}`;
    case 'gte': return sql`${id} >= ${v}`;
    case 'lt': return sql`${id} < ${v}`;
    case 'lte': return sql`${id} <= ${v}`;
    case 'like': return sql`${asText(sql, col)} ilike ${`%${escapeLike(String(v))}%`}`;
    case 'starts': return sql`${asText(sql, col)} ilike ${`${escapeLike(String(v))}%`}`;
    case 'ends': return sql`${asText(sql, col)} ilike ${`%${escapeLike(String(v))}`}`;
    case 'in': return sql`${id} in ${sql(f.value as string[])}`;
    case 'null': return f.value ? sql`${id} is null` : sql`${id} is not null`;
  }
  throw new Error(`filter ${f.op} on ${kind} column ${col.name} passed the parser`);
}

function searchCondition(sql: AnySql, resource: Resource, term: string): Fragment | undefined {
  const cols = resource.searchColumns.map((name) => resource.columns.find((c) => c.name === name)).filter((c) => c !== undefined);
  if (!cols.length) return undefined;
  const pattern = `%${escapeLike(term)}%`;
  return sql`(${join(sql, cols.map((c) => sql`${asText(sql, c)} ilike ${pattern}`), 'or')})`;
}

export function whereClause(sql: AnySql, resource: Resource, q: Pick<ListQuery, 'filters' | 'search'>): Fragment {
  const parts = q.filters.map((f) => condition(sql, resource, f));
  if (q.search !== null) {
    const s = searchCondition(sql, resource, q.search);
    if (s) parts.push(s);
  }
  return parts.length ? sql`where ${join(sql, parts, 'and')}` : sql``;
}

export function orderClause(sql: AnySql, sort: SortKey[]): Fragment {
  if (!sort.length) return sql``;
  return sql`order by ${join(sql, sort.map((k) => (k.desc ? sql`${sql(k.column)} desc` : sql`${sql(k.column)} asc`)), ',')}`;
}

const projection = (sql: AnySql, select: string[] | null): Fragment => (select ? sql(select) : sql`*`);

/** One page of rows as a JSON array text: `select … as data`. */
export function listQuery(sql: AnySql, resource: Resource, q: ListQuery): Fragment {
  return sql`
    select coalesce(json_agg(t), '[]')::text as data from (
      select ${projection(sql, q.select)} from ${tableRef(sql, resource)}
      ${whereClause(sql, resource, q)}
      ${orderClause(sql, q.sort)}
      limit ${q.limit} offset ${q.offset}
    ) t`;
}

export function countQuery(sql: AnySql, resource: Resource, q: ListQuery): Fragment {
  return sql`select count(*)::int as count from ${tableRef(sql, resource)} ${whereClause(sql, resource, q)}`;
}
