// Boots one embedded PostgreSQL for the whole run in a temp dir, applies platform SQL and the
// migrations to a template database, and hands its URL to the test files, which each clone their
// own database from it (see db.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../packages/local/src/embedded-postgres.ts';
import { applyMigrations, applyPlatformSql } from '../../packages/local/src/migrate.ts';
import { freePort } from '../../packages/local/src/free-port.ts';

export const TEMPLATE_DB = 'ledgerbase_template';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerbase-test-'));
  const pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort() });
  const admin = postgres(pg.url(), { onnotice: () => {}, max: 1 });
  await admin.unsafe(`create database ${TEMPLATE_DB}`);
  const template = postgres(pg.url(TEMPLATE_DB), { onnotice: () => {}, max: 1 });
  try {
    await applyPlatformSql(template);
    await applyMigrations(template);
  } finally {
    await template.end();
    await admin.end();
  }
  project.provide('pgAdminUrl', pg.url());
  project.provide('templateDb', TEMPLATE_DB);
  return async () => {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
