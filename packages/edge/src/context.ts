// What a function's app is built from: configuration, a database pool and a token verifier.
// Deployed functions build it from the runtime's environment; the local gateway and the tests
// build it explicitly so that several stacks can live in one process.
import { edgeConfigFromEnv, type EdgeConfig } from './config.ts';
import { createPool, type Sql } from './db.ts';
import { createTokenVerifier, type TokenVerifier } from './jwt.ts';

export interface EdgeContext {
  config: EdgeConfig;
  sql: Sql;
  verifyToken: TokenVerifier;
}

export function createEdgeContext(config: EdgeConfig, opts: { poolSize?: number } = {}): EdgeContext {
  return {
    config,
    sql: createPool(config.dbUrl, { max: opts.poolSize }),
    verifyToken: createTokenVerifier({
      jwks: config.jwks,
      jwksUrl: config.jwks ? undefined : `${config.supabaseUrl}/auth/v1/.well-known/jwks.json`,
      jwtSecret: config.jwtSecret,
    }),
  };
}

let fromEnv: EdgeContext | undefined;

/** The context of a deployed function: built once per isolate from its environment. */
export function edgeContextFromEnv(): EdgeContext {
  fromEnv ??= createEdgeContext(edgeConfigFromEnv());
  return fromEnv;
}
