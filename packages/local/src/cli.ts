// `npm start | status | reset | seed`: the local platform's command line.
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import postgres from 'postgres';
import { runningPostmasterPid, startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres.ts';
import { loadLocalKeys } from './keys.ts';
import { applyMigrations, applyPlatformSql, MigrationChangedError, needsPlatformSql } from './migrate.ts';
import { localSettings, type LocalSettings } from './settings.ts';
import { PortInUseError, startStack } from './stack.ts';
import { formatStatusBlock, statusObject } from './status.ts';
import { seedDemoData } from './seed.ts';

class CliError extends Error {}

const pidFile = (s: LocalSettings) => join(s.dataDir, 'ledgerbase.pid');

function runningStackPid(s: LocalSettings): number | null {
  if (!existsSync(pidFile(s))) return null;
  const pid = Number(readFileSync(pidFile(s), 'utf8'));
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

function assertPortFree(host: string, port: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new CliError(`${what} port ${port} on ${host} is already in use (set ${what === 'database' ? 'DB_PORT' : 'API_PORT'} to use another)`)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

async function start(settings: LocalSettings): Promise<void> {
  const t0 = Date.now();
  mkdirSync(settings.dataDir, { recursive: true });
  const other = runningStackPid(settings) ?? runningPostmasterPid(join(settings.dataDir, 'postgres'));
  if (other) throw new CliError(`ledgerbase is already running on ${settings.dataDir} (pid ${other}); stop it first`);
  await assertPortFree(settings.host, settings.apiPort, 'API');

  let pg: EmbeddedPostgresHandle | undefined;
  let databaseUrl = settings.databaseUrl;
  if (!databaseUrl) {
    await assertPortFree('127.0.0.1', settings.dbPort, 'database');
    pg = await startEmbeddedPostgres({ dataDir: join(settings.dataDir, 'postgres'), port: settings.dbPort });
    databaseUrl = pg.url();
  }
  writeFileSync(pidFile(settings), String(process.pid));

  let stopping = false;
  const cleanUp = async () => {
    await pg?.stop().catch(() => {});
    if (existsSync(pidFile(settings))) unlinkSync(pidFile(settings));
  };
  try {
    const sql = postgres(databaseUrl, { onnotice: () => {}, max: 1 });
    try {
      if (!settings.databaseUrl || (await needsPlatformSql(sql))) await applyPlatformSql(sql);
      const applied = await applyMigrations(sql);
      if (applied.length) console.log(`Applied ${applied.length} migration(s): ${applied.join(', ')}`);
    } finally {
      await sql.end();
    }
    const keys = await loadLocalKeys(settings.dataDir);
    const stack = await startStack({ databaseUrl, keys, host: settings.host, port: settings.apiPort });
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      console.log('\nStopping…');
      await stack.stop().catch((err) => console.error(err.message));
      await cleanUp();
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // A dropped database connection inside a long-lived worker must be logged, not fatal.
    process.on('unhandledRejection', (err) => console.error(`[local] ${(err as Error)?.message ?? err}`));
    console.log(formatStatusBlock(statusObject(settings, keys)));
    console.log(`\nStarted in ${((Date.now() - t0) / 1000).toFixed(1)} s. Press Ctrl-C to stop.`);
  } catch (err) {
    await cleanUp();
    throw err;
  }
}

async function status(settings: LocalSettings): Promise<void> {
  const keys = await loadLocalKeys(settings.dataDir);
  console.log(JSON.stringify(statusObject(settings, keys)));
}

function reset(settings: LocalSettings): void {
  const pid = runningStackPid(settings);
  if (pid) throw new CliError(`ledgerbase is running (pid ${pid}); stop it before resetting`);
  rmSync(settings.dataDir, { recursive: true, force: true });
  console.log(`Removed ${settings.dataDir}`);
}

async function seed(settings: LocalSettings): Promise<void> {
  const url = settings.databaseUrl ?? statusObject(settings, await loadLocalKeys(settings.dataDir)).DB_URL;
  const sql = postgres(url, { onnotice: () => {}, max: 2, connect_timeout: 3 });
  try {
    await sql`select 1`.catch(() => {
      throw new CliError(`cannot reach the database at ${url}; run \`npm start\` first`);
    });
    for (const line of await seedDemoData(sql)) console.log(line);
  } finally {
    await sql.end();
  }
}

const commands: Record<string, (s: LocalSettings) => void | Promise<void>> = { start, status, reset, seed };

async function main(): Promise<void> {
  const name = process.argv[2] ?? 'start';
  const command = commands[name];
  if (!command) throw new CliError(`unknown command "${name}"; use one of: ${Object.keys(commands).join(', ')}`);
  await command(localSettings());
}

main().catch((err) => {
  const known = err instanceof CliError || err instanceof PortInUseError || err instanceof MigrationChangedError;
  console.error(`error: ${known ? err.message : (err?.stack ?? err)}`);
  process.exit(1);
});
