// The generic resource engine: list, get, create (one or bulk), patch and delete for any
// registry resource, inside the caller's RLS session. No per-resource code lives here.
import { HttpError, type TransactionSql } from '../../../edge/mod.ts';
import type { Resource } from '../registry/types.ts';
import type { ListQuery } from '../query/list-query.ts';
import { countQuery, listQuery, tableRef } from '../query/sql-builder.ts';
import type { Row } from './body.ts';

export interface ListResult {
  /** JSON array text, straight from Postgres. */
  dataJson: string;
  meta: { count: number | null; limit: number; offset: number; page: number };
}

export async function listRows(tx: TransactionSql, resource: Resource, q: ListQuery): Promise<ListResult> {
  // both statements go out together (postgres.js pipelines them on the session's connection)
  const [rows, counted] = await Promise.all([
    listQuery(tx, resource, q) as Promise<{ data: string }[]>,
    q.count ? (countQuery(tx, resource, q) as Promise<{ count: number }[]>) : Promise.resolve(null),
  ]);
  return {
    dataJson: rows[0].data,
    meta: { count: counted ? counted[0].count : null, limit: q.limit, offset: q.offset, page: q.page },
  };
}

export const rowNotFound = (resource: Resource, id: string) => new HttpError(404, `No ${resource.path} row with id ${id}`);

/** One row as JSON text, or 404. */
export async function getRow(tx: TransactionSql, resource: Resource, id: string): Promise<string> {
  const [row] = await tx`select row_to_json(t)::text as data from ${tableRef(tx, resource)} t where id = ${id}`;
  if (!row) throw rowNotFound(resource, id);
  return row.data as string;
}

/**
 * Inserts rows and returns them, as a JSON array text, in the order given. Rows are grouped by
 * the set of fields they carry, so an omitted field takes its column default (one multi-row
 * INSERT per group; a typical bulk body is one group).
 */
export async function insertRows(tx: TransactionSql, resource: Resource, rows: Row[]): Promise<string> {
  const groups = new Map<string, { keys: string[]; rows: Row[]; at: number[] }>();
  rows.forEach((row, i) => {
    const keys = Object.keys(row).sort();
    const sig = keys.join(',');
    const group = groups.get(sig) ?? { keys, rows: [], at: [] };
    group.rows.push(row);
    group.at.push(i);
    groups.set(sig, group);
  });
  const out: string[] = new Array(rows.length);
  for (const group of groups.values()) {
    if (!group.keys.length) {
      // rows of nothing but defaults: postgres has no multi-row DEFAULT VALUES
      for (const at of group.at) {
        const [r] = await tx`with ins as (insert into ${tableRef(tx, resource)} default values returning *) select row_to_json(ins)::text as data from ins`;
        out[at] = r.data as string;
      }
      continue;
    }
    const created = await tx`
      with ins as (insert into ${tableRef(tx, resource)} ${tx(group.rows, group.keys)} returning *)
      select row_to_json(ins)::text as data from ins`;
    created.forEach((r, j) => (out[group.at[j]] = r.data as string));
  }
  return `[${out.join(',')}]`;
}

/**
 * PATCH: the updated row as JSON text. An empty patch returns the row unchanged. RLS lets a
 * member without write permission see the row but makes the update fail (→ 403).
 */
export async function updateRow(tx: TransactionSql, resource: Resource, id: string, patch: Row): Promise<string> {
  const keys = Object.keys(patch);
  if (!keys.length) return getRow(tx, resource, id);
  const [row] = await tx`
    with upd as (update ${tableRef(tx, resource)} set ${tx(patch, keys)} where id = ${id} returning *)
    select row_to_json(upd)::text as data from upd`;
  if (!row) throw rowNotFound(resource, id);
  return row.data as string;
}

/**
 * DELETE: 404 when the caller cannot see the row; 403 when they can see it but the delete
 * policy (write permission) filtered it out — RLS deletes silently match nothing.
 */
export async function deleteRow(tx: TransactionSql, resource: Resource, id: string): Promise<string> {
  const [row] = await tx`
    with del as (delete from ${tableRef(tx, resource)} where id = ${id} returning *)
    select row_to_json(del)::text as data from del`;
  if (row) return row.data as string;
  const [visible] = await tx`select 1 from ${tableRef(tx, resource)} where id = ${id}`;
  if (visible) throw new HttpError(403, `Forbidden: your role cannot delete ${resource.path} in the active company`);
  throw rowNotFound(resource, id);
}
