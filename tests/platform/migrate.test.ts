import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, MigrationChangedError, needsPlatformSql, readMigrations } from '../../packages/local/src/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let db: TestDatabase;
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'migrations-'));
});
afterAll(async () => {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

const write = (file: string, sql: string) => writeFileSync(join(dir, file), sql);

describe('migration runner', () => {
  it('applies files in timestamp order and records them like the Supabase CLI', async () => {
    // written out of order on purpose: the second depends on the first
    write('20990101000002_add_column.sql', 'alter table mig_probe add column note text;');
    write('20990101000001_create_table.sql', 'create table mig_probe (id int primary key);');
    const applied = await applyMigrations(db.sql, dir);
    expect(applied).toEqual(['20990101000001_create_table.sql', '20990101000002_add_column.sql']);
    const rows = await db.sql`select version, name, statements from supabase_migrations.schema_migrations
                              where version like '2099%' order by version`;
    expect(rows.map((r) => [r.version, r.name])).toEqual([
      ['20990101000001', 'create_table'],
      ['20990101000002', 'add_column'],
    ]);
    expect(rows[0].statements).toEqual(['create table mig_probe (id int primary key);']);
  });

  it('is a no-op when re-run', async () => {
    expect(await applyMigrations(db.sql, dir)).toEqual([]);
  });

  it('refuses an applied migration whose file changed, naming the file', async () => {
    write('20990101000001_create_table.sql', 'create table mig_probe (id bigint primary key);');
    await expect(applyMigrations(db.sql, dir)).rejects.toThrow(MigrationChangedError);
    await expect(applyMigrations(db.sql, dir)).rejects.toThrow(/20990101000001_create_table\.sql/);
    write('20990101000001_create_table.sql', 'create table mig_probe (id int primary key);');
  });

  it('rolls back a failing migration entirely and records nothing', async () => {
    write('20990101000003_broken.sql', 'create table mig_half (id int); select 1/0;');
    await expect(applyMigrations(db.sql, dir)).rejects.toThrow(/division by zero/);
    const [row] = await db.sql`select to_regclass('mig_half') is null as absent,
      (select count(*)::int from supabase_migrations.schema_migrations where version = '20990101000003') as recorded`;
    expect(row).toEqual({ absent: true, recorded: 0 });
    rmSync(join(dir, '20990101000003_broken.sql'));
  });

  it('rejects a file name without a 14-digit version', () => {
    write('create_things.sql', 'select 1;');
    expect(() => readMigrations(dir)).toThrow(/create_things\.sql/);
    rmSync(join(dir, 'create_things.sql'));
  });

  it('knows the platform SQL is present in the test database', async () => {
    expect(await needsPlatformSql(db.sql)).toBe(false);
  });
});
