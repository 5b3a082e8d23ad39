// The auth server as apps reach it: through the local gateway of the full stack, with the legacy
// anon key and with the publishable key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { uniqueEmail } from './auth-server.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

describe('auth through the gateway', () => {
  it.each([
    ['anon key', () => stack.keys.anonKey],
    ['publishable key', () => stack.keys.publishableKey],
  ])('supabase-js with the %s: sign up, sign in, get user, refresh, sign out', async (_name, key) => {
    const email = uniqueEmail('gateway');
    const client = stack.client(key());
    const signUp = await client.auth.signUp({ email, password: 'secret-pass', options: { data: { display_name: 'G' } } });
    expect(signUp.error).toBeNull();
    expect(signUp.data.user!.user_metadata).toEqual({ display_name: 'G' });

    const signIn = await client.auth.signInWithPassword({ email, password: 'secret-pass' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.session!.access_token).toMatch(/^ey/);
    const claims = JSON.parse(Buffer.from(signIn.data.session!.access_token.split('.')[1], 'base64url').toString());
    expect(claims.iss).toBe(`${stack.url}/auth/v1`);

    expect((await client.auth.getUser()).data.user!.email).toBe(email);
    expect((await client.auth.refreshSession()).error).toBeNull();
    expect((await client.auth.signOut()).error).toBeNull();
  });

  it('publishes the JWKS without an apikey', async () => {
    const response = await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect((await response.json()).keys[0].kid).toBe(stack.keys.signingKey.kid);
  });

  it('records failed sign-ins under the socket address the gateway reports', async () => {
    const email = uniqueEmail('gateway-fail');
    const { error } = await stack.client().auth.signInWithPassword({ email, password: 'wrong-pass' });
    expect(error!.code).toBe('invalid_credentials');
    const rows = await stack.db.sql`select ip from auth.login_attempts where email = ${email}`;
    expect(rows.map((r) => r.ip)).toEqual(['127.0.0.1']);
  });
});
