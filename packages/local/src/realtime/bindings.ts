// postgres_changes bindings of a channel: the `config.postgres_changes` entries of phx_join,
// checked against the catalog, each given the integer id that payload.ids refers to.
import type { Sql } from 'postgres';
import { FilterError, matchesFilter, parseFilter, type Condition } from './filters.ts';
import type { Change } from './replication.ts';

export interface Binding {
  id: number;
  /** '*', INSERT, UPDATE or DELETE (upper-cased). */
  event: string;
  schema: string;
  /** undefined or '*' means every table of the schema. */
  table: string | undefined;
  conditions: Condition[];
  /** Optional column list (`select: [...]`): the payload carries only these. */
  select: string[] | undefined;
  /** The entry exactly as the client sent it: the join reply echoes it with `id` added. */
  entry: Record<string, unknown>;
}

export class BindingError extends Error {}

const EVENTS = new Set(['*', 'INSERT', 'UPDATE', 'DELETE']);

/**
 * A stable, non-zero 31-bit id from the binding's parameters: realtime-js requires it truthy and
 * compares it with ===, and identical parameters may share one, as on Supabase.
 */
function bindingId(entry: Record<string, unknown>): number {
  const text = JSON.stringify([entry.event, entry.schema, entry.table ?? null, entry.filter ?? null, entry.select ?? null]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 1) || 1;
}

/** Parses one entry; throws BindingError with a message fit for the client. */
export function parseBinding(entry: Record<string, unknown>): Binding {
  const event = String(entry.event ?? '').toUpperCase();
  if (!EVENTS.has(event)) throw new BindingError(`invalid event "${entry.event}": use *, INSERT, UPDATE or DELETE`);
  if (typeof entry.schema !== 'string' || entry.schema === '') throw new BindingError('schema is required');
  if (entry.table != null && typeof entry.table !== 'string') throw new BindingError('table must be a string');
  if (entry.filter != null && typeof entry.filter !== 'string') throw new BindingError('filter must be a string');
  const select = entry.select;
  if (select != null && !(Array.isArray(select) && select.every((c) => typeof c === 'string'))) {
    throw new BindingError('select must be a list of column names');
  }
  let conditions: Condition[];
  try {
    conditions = parseFilter(entry.filter as string | undefined);
  } catch (err) {
    if (err instanceof FilterError) throw new BindingError(`Error parsing \`filter\` params: ${err.message}`);
    throw err;
  }
  const table = entry.table as string | undefined;
  if (conditions.length && (!table || table === '*')) throw new BindingError('a filter needs a table');
  return {
    id: bindingId(entry),
    event,
    schema: entry.schema,
    table,
    conditions,
    select: select as string[] | undefined,
    entry,
  };
}

/**
 * Checks that the binding names tables of the publication and columns that exist, as Realtime
 * does before it answers "Subscribed to PostgreSQL".
 */
export async function checkBinding(sql: Sql, publication: string, b: Binding): Promise<void> {
  const anySchema = b.schema === '*';
  const anyTable = !b.table || b.table === '*';
  const [found] = await sql`
    select count(*)::int as n from pg_publication_tables
     where pubname = ${publication}
       and (${anySchema} or schemaname = ${b.schema})
       and (${anyTable} or tablename = ${b.table ?? ''})`;
  if (!found || found.n === 0) {
    throw new BindingError(
      `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [event: ${b.event}, schema: ${b.schema}, table: ${b.table ?? '*'}, filters: [${b.conditions.map((c) => c.column).join(', ')}]]`,
    );
  }
  const wanted = [...new Set([...b.conditions.map((c) => c.column), ...(b.select ?? [])])];
  if (!wanted.length || anyTable) return;
  const rows = await sql`
    select a.attname from pg_attribute a
      join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = ${b.schema} and c.relname = ${b.table!} and a.attnum > 0 and not a.attisdropped`;
  const existing = new Set(rows.map((r) => r.attname as string));
  const unknown = wanted.filter((c) => !existing.has(c));
  if (unknown.length) throw new BindingError(`unknown column(s) ${unknown.join(', ')} of ${b.schema}.${b.table}`);
}

/** Does `change` concern this binding? Filters see the new row, or for DELETE the old identity. */
export function bindingMatches(b: Binding, change: Change): boolean {
  if (b.event !== '*' && b.event !== change.type) return false;
  if (b.schema !== '*' && b.schema !== change.table.schema) return false;
  if (b.table && b.table !== '*' && b.table !== change.table.table) return false;
  if (!b.conditions.length) return true;
  const row = change.type === 'DELETE' ? change.oldRecord : change.record;
  return !!row && matchesFilter(b.conditions, row, change.table.typeOf);
}
