// Where the local stack lives and listens; every value can be overridden from the environment.
import { resolve } from 'node:path';

export interface LocalSettings {
  dataDir: string;
  host: string;
  apiPort: number;
  dbPort: number;
  /** An existing PostgreSQL to use instead of the embedded one. */
  databaseUrl?: string;
}

function port(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, got "${value}"`);
  return n;
}

export function localSettings(env: NodeJS.ProcessEnv = process.env): LocalSettings {
  return {
    dataDir: resolve(env.LEDGERBASE_DATA_DIR ?? '.data'),
    host: env.API_HOST ?? '127.0.0.1',
    apiPort: port(env.API_PORT, 54321, 'API_PORT'),
    dbPort: port(env.DB_PORT, 54322, 'DB_PORT'),
    databaseUrl: env.DATABASE_URL || undefined,
  };
}
