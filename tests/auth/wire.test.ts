// The auth server's HTTP surface byte by byte: error envelopes, the access token's header and
// claims, the JWKS, the rows written, token checks on /user and the logout scopes.
import { createLocalJWKSet, decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, uniqueEmail, type AuthServer } from './auth-server.ts';

let server: AuthServer;
beforeAll(async () => {
  server = await startAuthServer();
});
afterAll(async () => {
  await server?.close();
});

interface SessionBody {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at: number;
  token_type: string;
  user: { id: string; email: string; user_metadata: Record<string, unknown> };
}

async function signUp(data: Record<string, unknown> = {}): Promise<SessionBody> {
  const response = await server.call('/signup', { body: { email: uniqueEmail('wire'), password: 'secret-pass', data } });
  expect(response.status).toBe(200);
  return response.json();
}

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  const body = await response.json();
  expect(body).toMatchObject({ code, error_code: code });
  expect(typeof body.message).toBe('string');
  expect(body.msg).toBe(body.message);
  return body;
}

describe('error envelopes', () => {
  it('weak password: 422 with the reasons', async () => {
    const body = await expectError(
      await server.call('/signup', { body: { email: uniqueEmail(), password: 'abc' } }),
      422,
      'weak_password',
    );
    expect(body.weak_password).toEqual({ reasons: ['length'] });
  });

  it.each([
    ['malformed JSON', '{"email": '],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"hello"'],
    ['no password', { email: 'a@example.com' }],
    ['no email', { password: 'secret-pass' }],
    ['a non-string email', { email: 42, password: 'secret-pass' }],
    ['a malformed email', { email: 'a@@example.com', password: 'secret-pass' }],
    ['data that is not an object', { email: 'b@example.com', password: 'secret-pass', data: [1] }],
    ['a NUL in the password', { email: 'c@example.com', password: 'secret\u0000pass' }],
    ['a NUL in the metadata', { email: 'd@example.com', password: 'secret-pass', data: { n: 'a\u0000b' } }],
    ['a password over 72 bytes', { email: 'e@example.com', password: 'é'.repeat(40) }],
  ])('signup with %s: 400 validation_failed', async (_what, body) => {
    await expectError(await server.call('/signup', { body }), 400, 'validation_failed');
  });

  it.each([
    ['an unknown grant_type', '/token?grant_type=magic', { email: 'a@example.com', password: 'x' }],
    ['no grant_type', '/token', { email: 'a@example.com', password: 'x' }],
    ['a password grant without password', '/token?grant_type=password', { email: 'a@example.com' }],
    ['a refresh grant without token', '/token?grant_type=refresh_token', {}],
    ['malformed JSON', '/token?grant_type=password', '{'],
  ])('token with %s: 400 validation_failed', async (_what, path, body) => {
    await expectError(await server.call(path, { body }), 400, 'validation_failed');
  });

  it('unknown route: 404 in the same envelope', async () => {
    await expectError(await server.call('/nope'), 404, 'not_found');
  });
});

describe('signup', () => {
  it('stores a bcrypt hash, the metadata, an identity, a session and a refresh token', async () => {
    const session = await signUp({ display_name: 'Grace', tags: ['a'] });
    const [user] = await server.db.sql`
      select encrypted_password, raw_user_meta_data, raw_app_meta_data, email_confirmed_at, aud, role
      from auth.users where id = ${session.user.id}`;
    expect(user.encrypted_password).toMatch(/^\$2[aby]\$10\$/);
    expect(user.raw_user_meta_data).toEqual({ display_name: 'Grace', tags: ['a'] });
    expect(user.raw_app_meta_data).toEqual({ provider: 'email', providers: ['email'] });
    expect(user.email_confirmed_at).toBeInstanceOf(Date);
    expect([user.aud, user.role]).toEqual(['authenticated', 'authenticated']);
    const identities = await server.db.sql`select provider, provider_id, email from auth.identities where user_id = ${session.user.id}`;
    expect(identities).toEqual([{ provider: 'email', provider_id: session.user.id, email: session.user.email }]);
    const tokens = await server.db.sql`
      select r.token from auth.refresh_tokens r join auth.sessions s on s.id = r.session_id
      where s.user_id = ${session.user.id} and not r.revoked`;
    expect(tokens.map((t) => t.token)).toEqual([session.refresh_token]);
  });

  it('answers with a Session whose expiry matches the token', async () => {
    const session = await signUp();
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    const payload = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString());
    expect(session.expires_at).toBe(payload.exp);
  });
});

describe('access token', () => {
  it('is ES256 with the kid of the JWKS and exactly GoTrue claims', async () => {
    const session = await signUp({ name: 'N' });
    expect(decodeProtectedHeader(session.access_token)).toEqual({
      alg: 'ES256',
      kid: server.keys.signingKey.kid,
      typ: 'JWT',
    });
    const jwksResponse = await server.call('/.well-known/jwks.json');
    expect(jwksResponse.status).toBe(200);
    const jwks = await jwksResponse.json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', key_ops: ['verify'], ext: true });
    expect(jwks.keys[0].d).toBeUndefined();

    const { payload } = await jwtVerify(session.access_token, createLocalJWKSet(jwks), {
      issuer: `${server.url}/auth/v1`,
      audience: 'authenticated',
    });
    const [dbSession] = await server.db.sql`select id, created_at from auth.sessions where user_id = ${session.user.id}`;
    expect(Object.keys(payload).sort()).toEqual(
      ['iss', 'sub', 'aud', 'exp', 'iat', 'email', 'phone', 'app_metadata', 'user_metadata', 'role', 'aal', 'amr', 'session_id', 'is_anonymous'].sort(),
    );
    expect(payload).toMatchObject({
      sub: session.user.id,
      aud: 'authenticated',
      email: session.user.email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { name: 'N' },
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: Math.floor(dbSession.created_at.getTime() / 1000) }],
      session_id: dbSession.id,
      is_anonymous: false,
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
  });
});

describe('GET /user', () => {
  it('returns the bare user for a valid token', async () => {
    const session = await signUp({ display_name: 'Lin' });
    const response = await server.call('/user', { token: session.access_token });
    expect(response.status).toBe(200);
    const user = await response.json();
    expect(user).toMatchObject({ id: session.user.id, email: session.user.email, user_metadata: { display_name: 'Lin' } });
    expect(user.access_token).toBeUndefined();
  });

  it('needs a bearer token: 401 no_authorization', async () => {
    await expectError(await server.call('/user'), 401, 'no_authorization');
  });

  it('refuses garbage, the anon key, foreign keys and expired tokens: 403 bad_jwt', async () => {
    const session = await signUp();
    const foreign = await generateKeyPair('ES256');
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString());
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: server.keys.signingKey.kid, typ: 'JWT' })
      .sign(foreign.privateKey);
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
      .setProtectedHeader({ alg: 'ES256', kid: server.keys.signingKey.kid, typ: 'JWT' })
      .sign(server.keys.signingKey.privateKey);
    for (const token of ['not-a-jwt', server.keys.anonKey, server.keys.serviceRoleKey, forged, expired]) {
      await expectError(await server.call('/user', { token }), 403, 'bad_jwt');
    }
  });

  it('accepts a legacy HS256 user token signed with the JWT secret', async () => {
    const session = await signUp();
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString());
    const legacy = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(server.keys.jwtSecret));
    expect((await server.call('/user', { token: legacy })).status).toBe(200);
  });

  it('answers 403 user_not_found once the user is deleted', async () => {
    const session = await signUp();
    await server.db.sql`delete from auth.users where id = ${session.user.id}`;
    await expectError(await server.call('/user', { token: session.access_token }), 403, 'user_not_found');
  });
});

describe('POST /logout', () => {
  async function twoSessions() {
    const first = await signUp();
    const response = await server.call('/token?grant_type=password', {
      body: { email: first.user.email, password: 'secret-pass' },
    });
    const second: SessionBody = await response.json();
    return [first, second] as const;
  }
  const alive = async (s: SessionBody) => (await server.call('/user', { token: s.access_token })).status === 200;

  it('scope=local ends only this session', async () => {
    const [a, b] = await twoSessions();
    expect((await server.call('/logout?scope=local', { method: 'POST', token: a.access_token })).status).toBe(204);
    expect([await alive(a), await alive(b)]).toEqual([false, true]);
    await expectError(await server.call('/logout', { method: 'POST', token: a.access_token }), 403, 'session_not_found');
  });

  it('scope=global (the default) ends every session and its refresh tokens', async () => {
    const [a, b] = await twoSessions();
    expect((await server.call('/logout', { method: 'POST', token: a.access_token })).status).toBe(204);
    expect([await alive(a), await alive(b)]).toEqual([false, false]);
    const refresh = await server.call('/token?grant_type=refresh_token', { body: { refresh_token: b.refresh_token } });
    await expectError(refresh, 400, 'refresh_token_not_found');
  });

  it('scope=others keeps this session', async () => {
    const [a, b] = await twoSessions();
    expect((await server.call('/logout?scope=others', { method: 'POST', token: a.access_token })).status).toBe(204);
    expect([await alive(a), await alive(b)]).toEqual([true, false]);
  });

  it('an unknown scope is a 400', async () => {
    const session = await signUp();
    await expectError(
      await server.call('/logout?scope=everything', { method: 'POST', token: session.access_token }),
      400,
      'validation_failed',
    );
  });
});

describe('health and settings', () => {
  it('answer with JSON', async () => {
    expect((await server.call('/health')).status).toBe(200);
    const settings = await (await server.call('/settings')).json();
    expect(settings).toMatchObject({ external: { email: true }, mailer_autoconfirm: true });
  });
});
