// The status object `npm run -s status` prints and `npm start` shows, like `supabase status`.
import type { LocalKeys } from './keys.ts';
import type { LocalSettings } from './settings.ts';
import { SUPERUSER, SUPERUSER_PASSWORD } from './embedded-postgres.ts';

export interface StatusObject {
  API_URL: string;
  DB_URL: string;
  FUNCTIONS_URL: string;
  REALTIME_URL: string;
  INVOICING_URL: string;
  JWKS_URL: string;
  ANON_KEY: string;
  SERVICE_ROLE_KEY: string;
  PUBLISHABLE_KEY: string;
  SECRET_KEY: string;
}

export function statusObject(settings: LocalSettings, keys: LocalKeys): StatusObject {
  const api = `http://${settings.host}:${settings.apiPort}`;
  return {
    API_URL: api,
    DB_URL: settings.databaseUrl ?? `postgresql://${SUPERUSER}:${SUPERUSER_PASSWORD}@127.0.0.1:${settings.dbPort}/postgres`,
    FUNCTIONS_URL: `${api}/functions/v1`,
    REALTIME_URL: `${api.replace(/^http/, 'ws')}/realtime/v1/websocket`,
    INVOICING_URL: api,
    JWKS_URL: `${api}/auth/v1/.well-known/jwks.json`,
    ANON_KEY: keys.anonKey,
    SERVICE_ROLE_KEY: keys.serviceRoleKey,
    PUBLISHABLE_KEY: keys.publishableKey,
    SECRET_KEY: keys.secretKey,
  };
}

export function formatStatusBlock(s: StatusObject): string {
  const rows: Array<[string, string]> = [
    ['API URL', s.API_URL],
    ['Functions URL', s.FUNCTIONS_URL],
    ['Invoicing URL', `${s.INVOICING_URL}/v1`],
    ['Realtime URL', s.REALTIME_URL],
    ['JWKS URL', s.JWKS_URL],
    ['DB URL', s.DB_URL],
    ['Publishable key', s.PUBLISHABLE_KEY],
    ['Secret key', s.SECRET_KEY],
    ['anon key', s.ANON_KEY],
    ['service_role key', s.SERVICE_ROLE_KEY],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return ['ledgerbase local development setup is running.', '', ...rows.map(([k, v]) => `${k.padStart(width)}: ${v}`)].join('\n');
}
