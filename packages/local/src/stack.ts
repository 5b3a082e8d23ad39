// Composes the local platform on one database: auth, functions gateway, realtime, and the
// pg_net / pg_cron stand-ins, behind one HTTP server — what `npm start` and the e2e tests run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { createEdgeContext, type EdgeContext } from '../../edge/mod.ts';
import { createAuthApp } from './auth/app.ts';
import { readFunctionConfigs } from './gateway/config-toml.ts';
import { functionFactories, type AppFactory } from './gateway/function-registry.ts';
import { createGateway, payloadTooLarge, type GatewayFunction } from './gateway/gateway.ts';
import type { LocalKeys } from './keys.ts';
import { fetchListener } from './node-http.ts';
import { createRealtimeServer } from './realtime/server.ts';
import { startWorkers, type Workers } from './workers.ts';

export interface StackOptions {
  databaseUrl: string;
  keys: LocalKeys;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Functions beyond config.toml's (test fixtures): slug → factory and verify_jwt. */
  extraFunctions?: Record<string, { factory: AppFactory; verifyJwt: boolean }>;
  /** Run the pg_net and pg_cron stand-ins (default true). */
  workers?: boolean;
  log?: (line: string) => void;
}

export interface Stack {
  url: string;
  keys: LocalKeys;
  edge: EdgeContext;
  server: Server;
  stop(): Promise<void>;
}

export class PortInUseError extends Error {
  constructor(readonly host: string, readonly port: number) {
    super(`port ${port} on ${host} is already in use`);
  }
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(host, port) : err),
    );
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function loadFunctions(
  edge: EdgeContext,
  extra: StackOptions['extraFunctions'] = {},
): Map<string, GatewayFunction> {
  const functions = new Map<string, GatewayFunction>();
  for (const fn of readFunctionConfigs()) {
    const factory = functionFactories[fn.name];
    if (!factory) throw new Error(`supabase/config.toml lists function "${fn.name}" but no app is registered for it`);
    functions.set(fn.name, { app: factory(edge), verifyJwt: fn.verifyJwt });
  }
  for (const [name, fn] of Object.entries(extra)) {
    functions.set(name, { app: fn.factory(edge), verifyJwt: fn.verifyJwt });
  }
  return functions;
}

export async function startStack(opts: StackOptions): Promise<Stack> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? ((line: string) => console.error(line));
  const server = createServer();
  const port = await listen(server, host, opts.port ?? 0);
  const url = `http://${host}:${port}`;

  const { keys } = opts;
  const edge = createEdgeContext(
    {
      supabaseUrl: url,
      dbUrl: opts.databaseUrl,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      jwtSecret: keys.jwtSecret,
      jwks: keys.jwks as EdgeContext['config']['jwks'],
      publishableKeys: [keys.publishableKey],
      secretKeys: [keys.secretKey],
    },
    { poolSize: 20 },
  );
  const adminSql = postgres(opts.databaseUrl, { onnotice: () => {}, max: 5 });
  const auth = createAuthApp({ sql: adminSql, keys, issuer: `${url}/auth/v1` });
  const gateway = createGateway({ keys, edge, auth, functions: loadFunctions(edge, opts.extraFunctions), log });
  const realtime = createRealtimeServer({
    databaseUrl: opts.databaseUrl,
    keys,
    verifyToken: edge.verifyToken,
    log,
  });
  const workers: Workers | undefined = opts.workers === false ? undefined : startWorkers({ sql: adminSql, log });

  // listening already (the URL needs the port), but requests are only taken from here on
  server.on('request', fetchListener(gateway, { baseUrl: url, onTooLarge: payloadTooLarge }));
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', url).pathname === '/realtime/v1/websocket') {
      realtime.handleUpgrade(req, socket, head);
    } else {
      socket.destroy();
    }
  });
  await realtime.ready();

  return {
    url,
    keys,
    edge,
    server,
    async stop() {
      await realtime.close();
      await workers?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await edge.sql.end({ timeout: 2 });
      await adminSql.end({ timeout: 2 });
    },
  };
}
