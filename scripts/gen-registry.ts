// `npm run gen`: regenerates packages/invoicing/src/generated/tables.ts from the migrated schema
// `invoicing`, like `supabase gen types`. With DATABASE_URL it introspects that (already migrated)
// database; otherwise it boots a throwaway embedded Postgres, applies platform SQL and every
// migration, introspects, and removes it again.
import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres } from '../packages/local/src/embedded-postgres.ts';
import { applyMigrations, applyPlatformSql } from '../packages/local/src/migrate.ts';
import { introspectInvoicingSchema, renderGeneratedTables } from '../packages/invoicing/src/registry/introspect.ts';
import { freePort } from '../packages/local/src/free-port.ts';

export const GENERATED_FILE = new URL('../packages/invoicing/src/generated/tables.ts', import.meta.url);

async function withDatabase<T>(run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  if (process.env.DATABASE_URL) {
    const sql = postgres(process.env.DATABASE_URL, { onnotice: () => {}, max: 1 });
    try {
      return await run(sql);
    } finally {
      await sql.end();
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'ledgerbase-gen-'));
  chmodSync(dir, 0o755);  // the postgres OS user must reach the data dir when we run as root
  const pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort() });
  const sql = postgres(pg.url(), { onnotice: () => {}, max: 1 });
  try {
    await applyPlatformSql(sql);
    await applyMigrations(sql);
    return await run(sql);
  } finally {
    await sql.end();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const tables = await withDatabase(introspectInvoicingSchema);
writeFileSync(GENERATED_FILE, renderGeneratedTables(tables));
console.log(`wrote ${GENERATED_FILE.pathname}: ${Object.keys(tables).length} tables/views`);
