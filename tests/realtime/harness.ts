// A realtime server on its own test database behind a plain node:http server, plus the helpers
// the realtime tests share: signed tokens, supabase-js clients and waiting for deliveries.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { createTokenVerifier } from '../../packages/edge/src/jwt.ts';
import { loadLocalKeys, type LocalKeys } from '../../packages/local/src/keys.ts';
import { createRealtimeServer, type RealtimeServer } from '../../packages/local/src/realtime/server.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

export interface RealtimeHarness {
  db: TestDatabase;
  keys: LocalKeys;
  realtime: RealtimeServer;
  /** http://127.0.0.1:<port> */
  url: string;
  /** ws://127.0.0.1:<port>/realtime/v1/websocket */
  wsUrl: string;
  logs: string[];
  userToken(sub: string, opts?: { expiresIn?: number }): Promise<string>;
  client(token?: string): SupabaseClient;
  close(): Promise<void>;
}

export async function startRealtimeHarness(setupSql: string): Promise<RealtimeHarness> {
  const db = await createTestDatabase();
  await db.sql.unsafe(setupSql);
  const keyDir = mkdtempSync(join(tmpdir(), 'ledgerbase-rt-keys-'));
  const keys = await loadLocalKeys(keyDir, {});
  const logs: string[] = [];
  const realtime = createRealtimeServer({
    databaseUrl: db.url,
    keys,
    verifyToken: createTokenVerifier({ jwks: keys.jwks as { keys: JsonWebKey[] }, jwtSecret: keys.jwtSecret }),
    log: (line) => {
      logs.push(line);
      if (process.env.REALTIME_DEBUG) console.log(line);
    },
  });
  await realtime.ready();

  const http: Server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  http.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname === '/realtime/v1/websocket') {
      realtime.handleUpgrade(req, socket, head);
    } else socket.destroy();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const clients: SupabaseClient[] = [];

  return {
    db,
    keys,
    realtime,
    url,
    wsUrl: `ws://127.0.0.1:${port}/realtime/v1/websocket`,
    logs,
    async userToken(sub, opts = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ sub, role: 'authenticated', aud: 'authenticated', session_id: crypto.randomUUID() })
        .setProtectedHeader({ alg: 'ES256', kid: keys.signingKey.kid, typ: 'JWT' })
        .setIssuedAt(now - 7200)
        .setExpirationTime(now + (opts.expiresIn ?? 3600))
        .sign(keys.signingKey.privateKey);
    },
    client(token) {
      const client = createClient(url, keys.publishableKey, {
        // Node 20 has no global WebSocket.
        realtime: { transport: WebSocket as never },
        auth: { persistSession: false, autoRefreshToken: false },
      });
      if (token) client.realtime.setAuth(token);
      clients.push(client);
      return client;
    },
    async close() {
      for (const c of clients) {
        await c.removeAllChannels().catch(() => {});
        c.realtime.disconnect();
      }
      await realtime.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await db.drop();
      rmSync(keyDir, { recursive: true, force: true });
    },
  };
}

/** Polls `predicate` until it holds or `ms` pass. */
export async function waitFor(predicate: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Subscribes and resolves with the first terminal status (and error, if any). */
export function subscribed(channel: ReturnType<SupabaseClient['channel']>): Promise<{ status: string; err?: Error }> {
  return new Promise((resolve) => {
    channel.subscribe((status, err) => {
      if (status !== 'CLOSED') resolve({ status, err });
    });
  });
}
