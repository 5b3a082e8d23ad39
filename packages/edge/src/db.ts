// The database pool and RLS sessions. Functions reach Postgres through the transaction pooler in
// production, which cannot keep prepared statements: hence `prepare: false`.
import postgres, { type Sql, type TransactionSql } from 'postgres';
import type { Claims } from './jwt.ts';

export type { Sql, TransactionSql };

export function createPool(dbUrl: string, opts: { max?: number } = {}): Sql {
  return postgres(dbUrl, {
    prepare: false,
    max: opts.max ?? 10,
    idle_timeout: 20,
    onnotice: () => {},
    // numeric and bigint stay strings: money is never parsed into a float by the driver
    types: {},
  });
}

const SESSION_ROLES = new Set(['anon', 'authenticated', 'service_role']);

/**
 * Runs `fn` in one transaction as the caller: `role` from the claims (default authenticated)
 * and `request.jwt.claims` set, so `auth.uid()` and RLS policies see who is asking.
 * `settings` adds further transaction-local settings (e.g. app.company_id).
 */
export function withClaims<T>(
  sql: Sql,
  claims: Claims,
  fn: (tx: TransactionSql) => Promise<T>,
  settings: Record<string, string> = {},
): Promise<T> {
  const role = typeof claims.role === 'string' && SESSION_ROLES.has(claims.role) ? claims.role : 'authenticated';
  const names = ['role', 'request.jwt.claims', ...Object.keys(settings)];
  const values = [role, JSON.stringify(claims), ...Object.values(settings)];
  return sql.begin(async (tx) => {
    await tx`select set_config(n, v, true) from unnest(${names}::text[], ${values}::text[]) as s(n, v)`;
    return fn(tx);
  }) as Promise<T>;
}
