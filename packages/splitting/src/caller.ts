// The signed-in caller: the Bearer token is verified here even when the gateway already did
// (verify_jwt), because the claims are what RLS needs. Only user tokens count: the anon and
// service_role keys carry no `sub`.
import type { Context, MiddlewareHandler } from 'hono';
import { bearerToken, unauthorized, withClaims, type Claims, type EdgeContext, type TransactionSql } from '../../edge/mod.ts';

export async function callerClaims(c: Context, ctx: EdgeContext): Promise<Claims> {
  const token = bearerToken(c.req.header('authorization'));
  if (!token) throw unauthorized('Missing Authorization: Bearer <access token> header');
  let claims: Claims;
  try {
    claims = await ctx.verifyToken(token);
  } catch {
    throw unauthorized('Invalid or expired access token');
  }
  if (typeof claims.sub !== 'string' || !claims.sub || claims.role !== 'authenticated') {
    throw unauthorized('A signed-in user access token is required');
  }
  return claims;
}

const CLAIMS = 'splittingClaims';

/** Middleware: a missing or bad token is a 401 before any input is looked at. */
export function requireUser(ctx: EdgeContext): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'OPTIONS') c.set(CLAIMS as never, (await callerClaims(c, ctx)) as never);
    await next();
  };
}

/** Runs `fn` in one transaction as the caller, so RLS decides what it may see and change. */
export async function asCaller<T>(c: Context, ctx: EdgeContext, fn: (tx: TransactionSql) => Promise<T>): Promise<T> {
  const claims = (c.get(CLAIMS as never) as Claims | undefined) ?? (await callerClaims(c, ctx));
  return withClaims(ctx.sql, claims, fn);
}
