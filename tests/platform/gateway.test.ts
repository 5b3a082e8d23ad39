// The functions gateway through real HTTP: apikey rules, verify_jwt, the caller seen in SQL,
// body limit, CORS, and 500s that never leak the stack.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWhoamiApp } from '../fixtures/whoami-function.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

let stack: TestStack;
let user: { token: string; userId: string };

beforeAll(async () => {
  stack = await startTestStack({
    extraFunctions: {
      whoami: { factory: createWhoamiApp, verifyJwt: true },
      'whoami-open': { factory: createWhoamiApp, verifyJwt: false },
    },
  });
  user = await stack.signUp({ displayName: 'Gateway Tester' });
});
afterAll(() => stack?.stop());

function call(path: string, init: { headers?: Record<string, string>; method?: string; body?: BodyInit } = {}) {
  return fetch(`${stack.url}${path}`, init);
}

const withKey = (extra: Record<string, string> = {}) => ({ apikey: stack.keys.anonKey, ...extra });

describe('gateway: apikey', () => {
  it('rejects a request without an apikey', async () => {
    const res = await call('/functions/v1/whoami', { headers: { authorization: `Bearer ${user.token}` } });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toMatch(/No API key/);
  });

  it('rejects an unknown apikey with the hosted message', async () => {
    const res = await call('/functions/v1/whoami', { headers: { apikey: 'sb_publishable_nope', authorization: `Bearer ${user.token}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Invalid API key' });
  });

  // verify_jwt is on for `whoami`: with no user token, the opaque sb_ keys pass only because the
  // gateway maps them to their role JWTs (reference §5).
  it.each([
    ['anon', () => stack.keys.anonKey],
    ['service_role', () => stack.keys.serviceRoleKey],
    ['publishable', () => stack.keys.publishableKey],
    ['secret', () => stack.keys.secretKey],
  ])('accepts the %s key when no user token is sent', async (_name, key) => {
    const res = await call('/functions/v1/whoami', { headers: { apikey: key() } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ uid: null });
  });

  it('maps an sb_ bearer (as supabase-js sends with new keys) to the role JWT', async () => {
    const res = await call('/functions/v1/whoami', {
      headers: { apikey: stack.keys.publishableKey, authorization: `Bearer ${stack.keys.publishableKey}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('gateway: verify_jwt', () => {
  it('lets the function see the caller in SQL as auth.uid()', async () => {
    const res = await call('/functions/v1/whoami/some/sub/path?x=1', { headers: withKey({ authorization: `Bearer ${user.token}` }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ uid: user.userId, role: 'authenticated', path: '/whoami/some/sub/path' });
  });

  it('refuses a malformed token with the format code', async () => {
    const res = await call('/functions/v1/whoami', { headers: withKey({ authorization: 'Bearer not-a-jwt' }) });
    expect(res.status).toBe(401);
    expect(res.headers.get('sb-error-code')).toBe('UNAUTHORIZED_INVALID_JWT_FORMAT');
    expect(await res.json()).toEqual({ code: 'UNAUTHORIZED_INVALID_JWT_FORMAT', message: 'Invalid JWT' });
  });

  it('refuses an expired token', async () => {
    const expired = await new SignJWT({ sub: user.userId, role: 'authenticated', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid: stack.keys.signingKey.kid, typ: 'JWT' })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(stack.keys.signingKey.privateKey);
    const res = await call('/functions/v1/whoami', { headers: withKey({ authorization: `Bearer ${expired}` }) });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('UNAUTHORIZED_INVALID_JWT');
  });

  it('refuses a token signed with another secret', async () => {
    const forged = await new SignJWT({ sub: user.userId, role: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(40)));
    const res = await call('/functions/v1/whoami', { headers: withKey({ authorization: `Bearer ${forged}` }) });
    expect(res.status).toBe(401);
  });

  it('skips the JWT check where config says verify_jwt = false, but still needs the apikey', async () => {
    // the gateway lets the bad token through; the function's own check answers
    const open = await call('/functions/v1/whoami-open', { headers: withKey({ authorization: 'Bearer not-a-jwt' }) });
    expect(open.status).toBe(401);
    expect(await open.json()).toEqual({ error: 'the function itself refused the token' });
    expect(open.headers.get('sb-error-code')).toBeNull();
    const noKey = await call('/functions/v1/whoami-open');
    expect(noKey.status).toBe(401);
  });
});

describe('gateway: routing and failures', () => {
  it('answers 404 JSON for an unknown function', async () => {
    const res = await call('/functions/v1/no-such-function', { headers: withKey() });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it('answers CORS preflight with the headers supabase-js sends', async () => {
    const res = await call('/functions/v1/whoami', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    const allowed = res.headers.get('access-control-allow-headers') ?? '';
    for (const h of ['authorization', 'x-client-info', 'apikey', 'content-type']) expect(allowed).toContain(h);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses bodies over 1 MB with 413 and accepts one just under', async () => {
    const headers = withKey({ authorization: `Bearer ${user.token}`, 'content-type': 'application/octet-stream' });
    const big = await call('/functions/v1/whoami/echo', { method: 'POST', headers, body: new Uint8Array(1024 * 1024 + 1) });
    expect(big.status).toBe(413);
    const ok = await call('/functions/v1/whoami/echo', { method: 'POST', headers, body: new Uint8Array(1024 * 1024) });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ size: 1024 * 1024 });
  });

  it('turns an exception into a 500 with a request id and no stack', async () => {
    const res = await call('/functions/v1/whoami/boom', { headers: withKey({ authorization: `Bearer ${user.token}` }) });
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(body)).not.toContain('secret internal detail');
  });

  it('invokes functions through supabase-js unchanged', async () => {
    const client = stack.client();
    const { data, error } = await client.functions.invoke('whoami/abc', {
      method: 'GET',
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ uid: user.userId, path: '/whoami/abc' });
  });
});
