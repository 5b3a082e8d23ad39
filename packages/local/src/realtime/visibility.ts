// The per-subscriber RLS check: would this subscriber's SELECT see the changed row? Answered by
// the database itself, as the subscriber's role with its JWT claims, so policies (auth.uid(),
// helper functions) behave exactly as they do for the REST API. It reads the row as it is now,
// looked up by primary key, which is what Supabase Realtime does too.
import type { Sql } from 'postgres';
import type { Row, TableInfo } from './replication.ts';

const ident = (name: string) => '"' + name.replace(/"/g, '""') + '"';

export type Claims = Record<string, unknown>;

export async function isVisible(
  sql: Sql,
  table: TableInfo,
  row: Row,
  claims: Claims,
  log: (line: string) => void,
): Promise<boolean> {
  if (!table.rls) return true;
  if (table.primaryKey.length === 0) {
    // Without a key the row cannot be singled out; Supabase refuses these too.
    log(`realtime: ${table.schema}.${table.table} has RLS but no primary key; change not sent`);
    return false;
  }
  const role = typeof claims.role === 'string' ? claims.role : 'anon';
  const where = table.primaryKey
    .map((k, i) => `${ident(k.name)} = $${i + 1}::${k.sqlType}`)
    .join(' and ');
  const params = table.primaryKey.map((k) => row[k.name] ?? null);
  try {
    return await sql.begin(async (tx) => {
      await tx`select set_config('role', ${role}, true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
      const rows = await tx.unsafe(
        `select 1 from ${ident(table.schema)}.${ident(table.table)} where ${where}`,
        params as string[],
      );
      return rows.length > 0;
    });
  } catch (err) {
    // A missing role, a revoked grant or a failing policy all mean "not visible".
    log(`realtime: RLS check on ${table.schema}.${table.table} as ${role} failed: ${(err as Error).message}`);
    return false;
  }
}
