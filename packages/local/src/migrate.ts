// Applies platform SQL and supabase/migrations/*.sql, recording each migration the way the
// Supabase CLI does (supabase_migrations.schema_migrations: version, name, statements), so
// `supabase db push` against the same database would see the same history.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Sql } from 'postgres';

export const PLATFORM_SQL_FILE = new URL('../sql/platform.sql', import.meta.url);
export const MIGRATIONS_DIR = new URL('../../../supabase/migrations/', import.meta.url).pathname;

const MIGRATION_NAME = /^(\d{14})_(.+)\.sql$/;

export interface MigrationFile {
  version: string;
  name: string;
  file: string;
  sql: string;
}

export class MigrationChangedError extends Error {
  constructor(readonly file: string) {
    super(`migration ${file} was changed after it was applied; add a new migration instead`);
  }
}

export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((file) => {
      const match = MIGRATION_NAME.exec(file);
      if (!match) throw new Error(`migration file name must be <14-digit timestamp>_<name>.sql: ${file}`);
      return { version: match[1], name: match[2], file, sql: readFileSync(join(dir, file), 'utf8') };
    });
}

/** True when the database lacks the `auth` schema hosted Supabase provides. */
export async function needsPlatformSql(sql: Sql): Promise<boolean> {
  const [row] = await sql`select to_regnamespace('auth') is null as missing`;
  return row.missing;
}

export async function applyPlatformSql(sql: Sql): Promise<void> {
  await sql.unsafe(readFileSync(PLATFORM_SQL_FILE, 'utf8'));
}

/**
 * Applies the migrations not yet recorded, each in its own transaction, in file order.
 * Returns the files applied. A recorded migration whose file content differs is an error.
 */
export async function applyMigrations(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  await sql.unsafe(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key,
      statements text[],
      name text
    );`);
  const applied = new Map<string, string[] | null>(
    (await sql`select version, statements from supabase_migrations.schema_migrations`).map(
      (r) => [r.version, r.statements],
    ),
  );
  const done: string[] = [];
  for (const m of readMigrations(dir)) {
    if (applied.has(m.version)) {
      if ((applied.get(m.version) ?? []).join('') !== m.sql) throw new MigrationChangedError(m.file);
      continue;
    }
    await sql.begin(async (tx) => {
      await tx.unsafe(m.sql);
      await tx`insert into supabase_migrations.schema_migrations (version, name, statements)
               values (${m.version}, ${m.name}, ${[m.sql]})`;
    });
    done.push(m.file);
  }
  return done;
}
