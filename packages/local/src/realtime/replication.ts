// The change feed: logical replication of one publication through postgres.js `subscribe`
// (a temporary pgoutput slot, dropped by Postgres when the connection ends), turned into Change
// objects that carry the table's column types, primary key and RLS flag.
//
// Values stay as Postgres text (every type parser is replaced by the identity): filters compare
// by type themselves, the RLS check casts the key text back with the column's SQL type, and the
// payload is built from text exactly as to_jsonb would print it.
import postgres, { type Sql } from 'postgres';

export type Row = Record<string, string | null | undefined>;
export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';

export interface TableInfo {
  schema: string;
  table: string;
  /** In table order, `type` as pg_type.typname (what realtime-js's converters key on). */
  columns: { name: string; type: string }[];
  typeOf(column: string): string;
  /** Primary key columns with their SQL type, for casting key text back in the RLS check. */
  primaryKey: { name: string; sqlType: string }[];
  rls: boolean;
}

export interface Change {
  type: ChangeType;
  table: TableInfo;
  /** New row: INSERT and UPDATE. */
  record: Row | null;
  /** Old identity: the full row under REPLICA IDENTITY FULL, else the key columns. */
  oldRecord: Row | null;
  commitTimestamp: string;
}

interface Relation {
  schema: string;
  table: string;
  columns: { name: string; type: number }[];
  keys: { name: string }[];
}

export interface ChangeFeed {
  /** Resolves once the slot exists and the stream is running. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Every built-in parser postgres.js has, mapped to the identity so values stay text. */
const TEXT_VALUES = {
  text: {
    to: 25,
    from: [16, 17, 20, 21, 23, 26, 114, 700, 701, 1082, 1114, 1184, 3802],
    serialize: (x: unknown) => String(x),
    parse: (x: string) => x,
  },
};

const pick = (row: Row, names: string[]): Row =>
  Object.fromEntries(names.filter((n) => n in row).map((n) => [n, row[n]]));

export function startChangeFeed(opts: {
  databaseUrl: string;
  publication: string;
  /** A normal (non-replication) pool for catalog lookups. */
  catalog: Sql;
  onChange: (change: Change) => Promise<void>;
  log: (line: string) => void;
}): ChangeFeed {
  const replication = postgres(opts.databaseUrl, {
    publications: opts.publication,
    types: TEXT_VALUES,
    // The walsender prints values with its session settings: pin them so timestamps are
    // always ISO and in UTC whatever the server's defaults are.
    connection: { TimeZone: 'UTC', DateStyle: 'ISO, MDY', application_name: 'ledgerbase-realtime' },
    max: 1,
    onnotice: () => {},
  });

  // pgoutput resends a Relation message after any DDL on the table, and postgres.js makes a new
  // object for it, so keying the lookup on the object refreshes it exactly when needed.
  const tables = new WeakMap<object, Promise<TableInfo>>();
  const typeNames = new Map<number, string>();

  async function tableInfo(rel: Relation): Promise<TableInfo> {
    let info = tables.get(rel);
    if (!info) {
      info = describe(rel);
      tables.set(rel, info);
      info.catch(() => tables.delete(rel));
    }
    return info;
  }

  async function describe(rel: Relation): Promise<TableInfo> {
    const missing = [...new Set(rel.columns.map((c) => c.type).filter((oid) => !typeNames.has(oid)))];
    if (missing.length) {
      const rows = await opts.catalog`select oid::int as oid, typname from pg_type where oid = any(${missing}::oid[])`;
      for (const r of rows) typeNames.set(r.oid, r.typname);
    }
    const [meta] = await opts.catalog`
      select c.relrowsecurity as rls,
             coalesce((select json_agg(json_build_object('name', a.attname,
                                                         'sqlType', format_type(a.atttypid, a.atttypmod))
                                       order by array_position(i.indkey::int2[], a.attnum))
                         from pg_index i
                         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                        where i.indrelid = c.oid and i.indisprimary), '[]'::json) as pk
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = ${rel.schema} and c.relname = ${rel.table}`;
    const columns = rel.columns.map((c) => ({ name: c.name, type: typeNames.get(c.type) ?? 'text' }));
    const types = new Map(columns.map((c) => [c.name, c.type]));
    return {
      schema: rel.schema,
      table: rel.table,
      columns,
      typeOf: (name) => types.get(name) ?? 'text',
      primaryKey: meta?.pk ?? [],
      rls: meta?.rls ?? false,
    };
  }

  async function toChange(
    row: Row | null,
    info: { command: string; relation: Relation; key?: boolean; old?: Row | null },
  ): Promise<Change | null> {
    const table = await tableInfo(info.relation);
    const commitTimestamp = new Date().toISOString();
    const pkNames = table.primaryKey.map((k) => k.name);
    switch (info.command) {
      case 'insert':
        return { type: 'INSERT', table, record: row, oldRecord: null, commitTimestamp };
      case 'update':
        // Without REPLICA IDENTITY FULL pgoutput sends no old tuple unless the key changed;
        // Realtime still reports the key, which equals the new row's.
        return {
          type: 'UPDATE',
          table,
          record: row,
          oldRecord: info.old ?? (row ? pick(row, pkNames) : null),
          commitTimestamp,
        };
      case 'delete':
        if (!row) return null;
        return {
          type: 'DELETE',
          table,
          record: null,
          // A key-only old tuple ('K') lists every column with non-key ones null: keep the key.
          oldRecord: info.key ? pick(row, info.relation.keys.map((k) => k.name)) : row,
          commitTimestamp,
        };
      default:
        return null;
    }
  }

  // Changes are handled one at a time, in WAL order, even though each needs async lookups.
  let queue: Promise<void> = Promise.resolve();
  let closed = false;

  const ready = replication
    .subscribe(
      '*',
      (row, info) => {
        if (closed) return;
        queue = queue
          .then(async () => {
            const change = await toChange(row as Row | null, info as any);
            if (change) await opts.onChange(change);
          })
          .catch((err) => opts.log(`realtime: dropped a change: ${(err as Error).message}`));
      },
      () => opts.log(`realtime: replication of publication ${opts.publication} is live`),
      (err?: Error) => opts.log(`realtime: replication stream error: ${err?.message}`),
    )
    .then(() => undefined);
  // Surfaced through ready(); keep an unobserved failure from crashing the process.
  ready.catch(() => {});

  return {
    ready,
    async close() {
      closed = true;
      await replication.end({ timeout: 1 }).catch((err) => opts.log(`realtime: ending replication: ${err.message}`));
      await queue;
    },
  };
}
