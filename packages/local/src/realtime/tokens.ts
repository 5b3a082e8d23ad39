// Which JWT a realtime connection or channel runs as. The connect `apikey` must be one of the
// project's keys; opaque `sb_` keys stand for the legacy role JWTs (reference §5), because
// channels need a JWT with `role` and `exp`. Channel joins may carry their own access_token.
import { decodeJwt } from 'jose';
import type { LocalKeys } from '../keys.ts';
import type { Claims } from './visibility.ts';

/** The role JWT an apikey maps to, or null for an unknown key. */
export function apiKeyJwt(apikey: string | null, keys: LocalKeys): string | null {
  if (!apikey) return null;
  if (apikey === keys.publishableKey || apikey === keys.anonKey) return keys.anonKey;
  if (apikey === keys.secretKey || apikey === keys.serviceRoleKey) return keys.serviceRoleKey;
  return null;
}

/** A channel's token: its own access_token unless that is missing or an `sb_` key. */
export function channelToken(accessToken: unknown, connectJwt: string): string {
  return typeof accessToken === 'string' && accessToken !== '' && !accessToken.startsWith('sb_')
    ? accessToken
    : connectJwt;
}

export class InvalidJwtError extends Error {}

/**
 * Verifies a channel token the way Realtime reports it: expired tokens say by how much, and
 * `role` and `exp` are required because channels expire with the token and RLS runs as role.
 */
export async function verifyChannelToken(
  token: string,
  verify: (token: string) => Promise<Record<string, unknown>>,
): Promise<Claims> {
  let claims: Claims;
  try {
    claims = await verify(token);
  } catch (err) {
    let exp: unknown;
    try {
      exp = decodeJwt(token).exp;
    } catch {
      /* not even decodable: report the verifier's message */
    }
    const now = Math.floor(Date.now() / 1000);
    if (typeof exp === 'number' && exp <= now) {
      throw new InvalidJwtError(`Token has expired ${now - exp} seconds ago`);
    }
    throw new InvalidJwtError((err as Error).message || 'Invalid token');
  }
  if (typeof claims.role !== 'string' || typeof claims.exp !== 'number') {
    throw new InvalidJwtError('Fields `role` and `exp` are required in JWT');
  }
  return claims;
}
