// Access-token verification: ES256 (user tokens) through the project's JWKS, HS256 (legacy anon /
// service_role keys and legacy user tokens) through the JWT secret.
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';

export interface Claims extends JWTPayload {
  sub?: string;
  role?: string;
  email?: string;
  session_id?: string;
  [claim: string]: unknown;
}

export class InvalidTokenError extends Error {
  constructor(
    message: string,
    /** Machine-readable reason: the token is not a JWT at all, or fails verification. */
    readonly reason: 'format' | 'invalid' = 'invalid',
  ) {
    super(message);
  }
}

export type TokenVerifier = (token: string) => Promise<Claims>;

export function createTokenVerifier(opts: {
  jwks?: { keys: JsonWebKey[] };
  jwksUrl?: string;
  jwtSecret?: string;
}): TokenVerifier {
  const keySet: JWTVerifyGetKey | undefined = opts.jwks
    ? createLocalJWKSet(opts.jwks as Parameters<typeof createLocalJWKSet>[0])
    : opts.jwksUrl
      ? createRemoteJWKSet(new URL(opts.jwksUrl))
      : undefined;
  const secret = opts.jwtSecret ? new TextEncoder().encode(opts.jwtSecret) : undefined;
  const verified = new VerifiedTokenCache();

  return async (token) => {
    const cached = verified.get(token);
    if (cached) return cached;
    const claims = await verify(token);
    verified.set(token, claims);
    return claims;
  };

  async function verify(token: string): Promise<Claims> {
    let alg: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw new InvalidTokenError('Invalid JWT format', 'format');
    }
    try {
      if (alg === 'HS256') {
        if (!secret) throw new InvalidTokenError('HS256 tokens are not accepted here');
        return (await jwtVerify(token, secret, { algorithms: ['HS256'] })).payload as Claims;
      }
      if (!keySet) throw new InvalidTokenError('no JWKS configured');
      return (await jwtVerify(token, keySet, { algorithms: ['ES256', 'RS256'] })).payload as Claims;
    } catch (err) {
      if (err instanceof InvalidTokenError) throw err;
      throw new InvalidTokenError(err instanceof Error ? err.message : 'Invalid JWT');
    }
  }
}

/**
 * Signature checks (ES256 especially) dominate a small request's cost, and a client sends the
 * same token for up to an hour. A verified token's claims are kept until its `exp`, bounded in
 * number; only successful verifications are cached, so a bad token is checked every time.
 */
class VerifiedTokenCache {
  private readonly entries = new Map<string, Claims>();
  constructor(private readonly maxEntries = 1000) {}

  get(token: string): Claims | undefined {
    const claims = this.entries.get(token);
    if (!claims) return undefined;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) {
      this.entries.delete(token);
      return undefined;
    }
    return claims;
  }

  set(token: string, claims: Claims): void {
    if (typeof claims.exp !== 'number') return; // never cache a token that does not expire
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, claims);
  }
}

/** `Authorization: Bearer <t>` → t, or null. */
export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * The caller's own JWT from `Authorization`, or null when there is none or it is an opaque
 * `sb_…` API key (supabase-js sends the key as the bearer when no user is signed in).
 */
export function userBearerToken(header: string | null | undefined): string | null {
  const token = bearerToken(header);
  return token && !token.startsWith('sb_') ? token : null;
}
