// User access tokens: ES256 JWTs with GoTrue's claim set, and their verification. Tokens signed
// with the legacy HS256 JWT secret are accepted too, as GoTrue accepts them during a key rotation.
import { SignJWT } from 'jose';
import { createTokenVerifier, InvalidTokenError, type Claims } from '../../../edge/mod.ts';
import type { LocalKeys } from '../keys.ts';
import { badJwt } from './errors.ts';
import type { UserRow } from './users.ts';

export interface IssuedAccessToken {
  token: string;
  /** Unix seconds */
  expiresAt: number;
  expiresIn: number;
}

export interface AccessTokens {
  issue(user: UserRow, session: { id: string; signedInAt: Date }): Promise<IssuedAccessToken>;
  /** Verified claims of a user token; anything unusable is a 403 bad_jwt, as in GoTrue. */
  verify(token: string): Promise<UserClaims>;
}

export interface UserClaims extends Claims {
  sub: string;
  session_id?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createAccessTokens(opts: { keys: LocalKeys; issuer: string; expirySeconds: number }): AccessTokens {
  const { keys, issuer, expirySeconds } = opts;
  const verifier = createTokenVerifier({
    jwks: keys.jwks as unknown as { keys: JsonWebKey[] },
    jwtSecret: keys.jwtSecret,
  });

  return {
    async issue(user, session) {
      const iat = Math.floor(Date.now() / 1000);
      const exp = iat + expirySeconds;
      // Claim order and content follow GoTrue's AccessTokenClaims; aud is a string, not an array.
      const token = await new SignJWT({
        iss: issuer,
        sub: user.id,
        aud: user.aud || 'authenticated',
        exp,
        iat,
        email: user.email ?? '',
        phone: user.phone ?? '',
        app_metadata: user.raw_app_meta_data,
        user_metadata: user.raw_user_meta_data,
        role: user.role || 'authenticated',
        aal: 'aal1',
        amr: [{ method: 'password', timestamp: Math.floor(session.signedInAt.getTime() / 1000) }],
        session_id: session.id,
        is_anonymous: user.is_anonymous,
      })
        .setProtectedHeader({ alg: 'ES256', kid: keys.signingKey.kid, typ: 'JWT' })
        .sign(keys.signingKey.privateKey);
      return { token, expiresAt: exp, expiresIn: expirySeconds };
    },

    async verify(token) {
      let claims: Claims;
      try {
        claims = await verifier(token);
      } catch (err) {
        const detail = err instanceof InvalidTokenError ? err.message : 'unable to parse or verify signature';
        throw badJwt(detail);
      }
      // The anon and service_role keys verify too, but they name no user.
      if (typeof claims.sub !== 'string' || !UUID.test(claims.sub)) throw badJwt('invalid claim: missing sub claim');
      if (claims.session_id !== undefined && (typeof claims.session_id !== 'string' || !UUID.test(claims.session_id))) {
        throw badJwt('invalid claim: session_id claim must be a UUID');
      }
      return claims as UserClaims;
    },
  };
}
