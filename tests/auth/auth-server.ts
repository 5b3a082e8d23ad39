// Serves the auth app alone over node:http on a fresh database, so tests talk to it over the wire
// exactly like supabase-js does through the gateway (which would only add the apikey check).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { createAuthApp, type AuthAppOptions } from '../../packages/local/src/auth/app.ts';
import { loadLocalKeys, type LocalKeys } from '../../packages/local/src/keys.ts';
import { fetchListener } from '../../packages/local/src/node-http.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

const TEST_IP_HEADER = 'x-test-client-ip';

export interface AuthServer {
  /** Project URL, as given to createClient (the app lives under /auth/v1). */
  url: string;
  keys: LocalKeys;
  db: TestDatabase;
  /** A fresh supabase-js client; `ip` is the client address the app sees (x-real-ip). */
  client(opts?: { ip?: string }): SupabaseClient;
  /** A raw request to /auth/v1<path> with the apikey and JSON body. */
  call(path: string, init?: { method?: string; body?: unknown; token?: string; ip?: string }): Promise<Response>;
  close(): Promise<void>;
}

export async function startAuthServer(
  options: Partial<Omit<AuthAppOptions, 'sql' | 'keys' | 'issuer'>> = {},
): Promise<AuthServer> {
  const db = await createTestDatabase();
  const keyDir = mkdtempSync(join(tmpdir(), 'ledgerbase-auth-keys-'));
  const keys = await loadLocalKeys(keyDir, {});
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app = createAuthApp({ sql: db.sql, keys, issuer: `${url}/auth/v1`, log: () => {}, ...options });
  // The node:http adapter sets x-real-ip from the socket (always 127.0.0.1 here); tests pose as
  // other clients through x-test-client-ip, which this wrapper turns into x-real-ip.
  const handler = (request: Request) => {
    const ip = request.headers.get(TEST_IP_HEADER);
    if (!ip) return app.fetch(request);
    const headers = new Headers(request.headers);
    headers.set('x-real-ip', ip);
    headers.delete(TEST_IP_HEADER);
    return app.fetch(new Request(request, { headers }));
  };
  server.on('request', fetchListener(handler, { baseUrl: url }));

  return {
    url,
    keys,
    db,
    client({ ip } = {}) {
      return createClient(url, keys.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        global: ip ? { headers: { [TEST_IP_HEADER]: ip } } : {},
        // Node 20 has no global WebSocket; realtime is unused here but the client builds it.
        realtime: { transport: WebSocket as never },
      });
    },
    call(path, init = {}) {
      const headers: Record<string, string> = { apikey: keys.anonKey };
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      if (init.ip) headers[TEST_IP_HEADER] = init.ip;
      return fetch(`${url}/auth/v1${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers,
        body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await db.drop();
      rmSync(keyDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A unique address per call, so tests in one file never collide on users. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${Date.now().toString(36)}-${counter++}@example.com`;
}
