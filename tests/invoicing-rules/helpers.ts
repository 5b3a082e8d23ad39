// Shared by the business-rule tests: a fresh database with one company (business in
// Maharashtra, 27) and an owner, and `run`, which executes SQL as that owner exactly as an API
// request does (role authenticated, claims, X-Company-Id) — so triggers run with RLS in force.
import type { Sql, TransactionSql } from 'postgres';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { as, makeCompany, makeUser } from '../invoicing-db/personas.ts';

export interface RulesWorld {
  db: TestDatabase;
  sql: Sql;
  ownerId: string;
  companyId: string;
  /** Runs fn in one transaction as the owner in the company. */
  run<T>(fn: (tx: TransactionSql) => Promise<T>): Promise<T>;
  /** Inserts one row as the owner and returns it (all columns). */
  insert(table: string, row: Record<string, unknown>): Promise<Record<string, any>>;
  row(table: string, id: string): Promise<Record<string, any>>;
}

export async function rulesWorld(profile: Record<string, unknown> = {}): Promise<RulesWorld> {
  const db = await createTestDatabase();
  const ownerId = await makeUser(db.sql, 'Owner');
  const companyId = await makeCompany(db.sql, ownerId, 'Rules Co');
  await db.sql`update invoicing.business_profile set ${db.sql({ state: 'Maharashtra', state_code: '27', ...profile } as Record<string, string>)}
               where company_id = ${companyId}`;
  const run = <T>(fn: (tx: TransactionSql) => Promise<T>) => as(db.sql, { userId: ownerId, companyId }, fn);
  return {
    db, sql: db.sql, ownerId, companyId, run,
    insert: (table, row) =>
      run(async (tx) => (await tx`insert into ${tx('invoicing.' + table)} ${tx(row as Record<string, string>)} returning *`)[0]),
    row: async (table, id) => (await db.sql`select * from ${db.sql('invoicing.' + table)} where id = ${id}`)[0],
  };
}

/** numeric columns arrive as strings: compare them as numbers. */
export const num = (v: unknown) => Number(v);

/** The SQLSTATE and message of a failed promise. */
export async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code?: string; message: string };
    return { code: e.code ?? '?', message: e.message };
  }
  throw new Error('expected the statement to fail');
}
