// Each test file clones its own database from the migrated template, so files run in parallel
// and never share rows.
import postgres, { type Sql } from 'postgres';
import { inject } from 'vitest';

export interface TestDatabase {
  name: string;
  url: string;
  /** Superuser connection (bypasses RLS): for arranging fixtures and checking results. */
  sql: Sql;
  drop(): Promise<void>;
}

let counter = 0;

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const template = inject('templateDb');
  const name = `t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const admin = postgres(adminUrl, { onnotice: () => {}, max: 1 });
  // CREATE DATABASE … TEMPLATE fails while another session is connected to the template;
  // a parallel file cloning at the same moment is the only such session, so retry briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe(`create database ${name} template ${template}`);
      break;
    } catch (err) {
      if (attempt > 50 || !String((err as Error).message).includes('being accessed')) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await admin.end();
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  const sql = postgres(url, { onnotice: () => {}, max: 5 });
  return {
    name,
    url,
    sql,
    async drop() {
      await sql.end({ timeout: 1 });
      const a = postgres(adminUrl, { onnotice: () => {}, max: 1 });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
