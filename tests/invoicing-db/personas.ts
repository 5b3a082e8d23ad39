// Personas for the invoicing database tests: users in auth.users, companies made the way the API
// makes them, and `as(...)`, which runs SQL exactly as an API request does — one transaction,
// role `authenticated`, the caller's JWT claims and the requested company (X-Company-Id).
import type { Sql, TransactionSql } from 'postgres';

let n = 0;

export async function makeUser(sql: Sql, name: string): Promise<string> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${process.pid}.${n++}@test.local`;
  const [u] = await sql`
    insert into auth.users (email, raw_user_meta_data)
    values (${email}, ${sql.json({ full_name: name })}) returning id`;
  return u.id;
}

export type Caller = { userId: string | null; companyId?: string; role?: 'authenticated' | 'anon' };

/** Runs `fn` as an API request would. companyId undefined = no X-Company-Id header ('' setting). */
export function as<T>(sql: Sql, caller: Caller, fn: (tx: TransactionSql) => Promise<T>): Promise<T> {
  const role = caller.role ?? 'authenticated';
  const claims = caller.userId ? { sub: caller.userId, role } : { role };
  return sql.begin(async (tx) => {
    await tx`select set_config('role', ${role}, true),
                    set_config('request.jwt.claims', ${JSON.stringify(claims)}, true),
                    set_config('app.company_id', ${caller.companyId ?? ''}, true)`;
    return fn(tx);
  }) as Promise<T>;
}

/** POST /v1/companies: the caller becomes owner (business profile and trial licence included). */
export async function makeCompany(sql: Sql, ownerId: string, name: string): Promise<string> {
  return as(sql, { userId: ownerId }, async (tx) => {
    const [r] = await tx`select app.invoicing_create_company(${name}) as id`;
    return r.id as string;
  });
}

export async function addMember(
  sql: Sql, companyId: string, userId: string, role: string, permissions: object = {},
): Promise<void> {
  await sql`
    insert into invoicing.memberships (company_id, user_id, role, permissions)
    values (${companyId}, ${userId}, ${role}, ${sql.json(permissions as Record<string, never>)})`;
}

/** The SQLSTATE of a failed promise (postgres.js puts it on `code`), or 'ok'. */
export async function sqlState(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}
