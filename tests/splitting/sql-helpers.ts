// SQL-level fixtures for the splitting tests: users in auth.users and persona sessions.
import type { Sql, TransactionSql } from 'postgres';

export async function createUser(sql: Sql, opts: { email?: string; displayName?: string } = {}): Promise<string> {
  const email = opts.email ?? `u${Math.random().toString(36).slice(2)}@example.com`;
  const meta = opts.displayName === undefined ? {} : { display_name: opts.displayName };
  const [row] = await sql`insert into auth.users (email, raw_user_meta_data) values (${email}, ${sql.json(meta)}) returning id`;
  return row.id as string;
}

/** A rolled-back transaction as the given persona: a user id, or 'anon'. */
export async function as<T>(sql: Sql, who: string, fn: (tx: TransactionSql) => Promise<T>): Promise<T> {
  let result: T;
  const rollback = new Error('rollback');
  try {
    await sql.begin(async (tx) => {
      if (who === 'anon') {
        await tx`select set_config('role', 'anon', true), set_config('request.jwt.claims', '{"role":"anon"}', true)`;
      } else {
        const claims = JSON.stringify({ sub: who, role: 'authenticated' });
        await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${claims}, true)`;
      }
      result = await fn(tx);
      throw rollback;
    });
  } catch (err) {
    if (err !== rollback) throw err;
  }
  return result!;
}

/** Like `as` but commits. */
export function commitAs<T>(sql: Sql, who: string, fn: (tx: TransactionSql) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    const claims = JSON.stringify({ sub: who, role: 'authenticated' });
    await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${claims}, true)`;
    return fn(tx);
  }) as Promise<T>;
}

/** Creates a group as `creator` (committed) and returns ids. */
export async function createGroup(sql: Sql, creator: string, name = 'Trip') {
  const [row] = await commitAs(sql, creator, (tx) => tx`select * from app.create_group(${name})`);
  return row as { group_id: string; member_id: string; group_code: string; member_name: string };
}

export async function joinGroup(sql: Sql, user: string, code: string) {
  const [row] = await commitAs(sql, user, (tx) => tx`select * from app.join_group(${code})`);
  return row as { status: string; group_id: string; member_id: string; already_member: boolean };
}
