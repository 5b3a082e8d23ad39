// The real supabase-js client against the local auth server: every call an app makes, and the
// errors as supabase-js surfaces them.
import { AuthApiError, AuthSessionMissingError, AuthWeakPasswordError, isAuthApiError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, uniqueEmail, type AuthServer } from './auth-server.ts';

let server: AuthServer;
beforeAll(async () => {
  server = await startAuthServer();
});
afterAll(async () => {
  await server?.close();
});

describe('supabase-js against the local auth server', () => {
  it('signs up (autoconfirmed) with user metadata and gets a session', async () => {
    const email = uniqueEmail('signup');
    const { data, error } = await server.client().auth.signUp({
      email,
      password: 'correct horse',
      options: { data: { display_name: 'Ada' } },
    });
    expect(error).toBeNull();
    expect(data.session).not.toBeNull();
    expect(data.session!.token_type).toBe('bearer');
    expect(data.session!.expires_in).toBe(3600);
    expect(data.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      phone: '',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { display_name: 'Ada' },
    });
    expect(data.user!.email_confirmed_at).toBeTruthy();
    expect(data.user!.identities).toHaveLength(1);
    expect(data.user!.identities![0]).toMatchObject({ provider: 'email', user_id: data.user!.id });
  });

  it('signs in, reads the user, refreshes and signs out', async () => {
    const email = uniqueEmail('flow');
    await server.client().auth.signUp({ email, password: 'secret-pass' });

    const client = server.client();
    const signIn = await client.auth.signInWithPassword({ email: email.toUpperCase(), password: 'secret-pass' });
    expect(signIn.error).toBeNull();
    const first = signIn.data.session!;
    expect(signIn.data.user!.email).toBe(email);
    expect(signIn.data.user!.last_sign_in_at).toBeTruthy();

    const got = await client.auth.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user!.id).toBe(signIn.data.user!.id);

    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session!.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.data.user!.id).toBe(signIn.data.user!.id);

    const { error: signOutError } = await client.auth.signOut();
    expect(signOutError).toBeNull();

    // The signed-out session's access token is dead, and so is its refresh token.
    const after = await server.client().auth.getUser(refreshed.data.session!.access_token);
    expect(after.error).toBeInstanceOf(AuthSessionMissingError);
    const reRefresh = await server.client().auth.refreshSession({ refresh_token: refreshed.data.session!.refresh_token });
    expect(reRefresh.error).toBeInstanceOf(AuthApiError);
    expect((reRefresh.error as AuthApiError).code).toBe('refresh_token_not_found');
  });

  it('reports a short password as AuthWeakPasswordError with reason length', async () => {
    const { data, error } = await server.client().auth.signUp({ email: uniqueEmail('weak'), password: '12345' });
    expect(data.user).toBeNull();
    expect(error).toBeInstanceOf(AuthWeakPasswordError);
    expect(error!.status).toBe(422);
    expect(error!.code).toBe('weak_password');
    expect((error as AuthWeakPasswordError).reasons).toEqual(['length']);
  });

  it('reports a duplicate email as user_already_exists', async () => {
    const email = uniqueEmail('dup');
    await server.client().auth.signUp({ email, password: 'secret-pass' });
    const { error } = await server.client().auth.signUp({ email: email.toUpperCase(), password: 'other-pass' });
    expect(isAuthApiError(error)).toBe(true);
    expect(error!.status).toBe(422);
    expect(error!.code).toBe('user_already_exists');
    expect(error!.message).toBe('User already registered');
  });

  it('reports a malformed email as validation_failed', async () => {
    const { error } = await server.client().auth.signUp({ email: 'not-an-email', password: 'secret-pass' });
    expect(error!.status).toBe(400);
    expect(error!.code).toBe('validation_failed');
  });

  it('reports a wrong password and an unknown email alike as invalid_credentials', async () => {
    const email = uniqueEmail('creds');
    await server.client().auth.signUp({ email, password: 'secret-pass' });
    for (const attempt of [
      { email, password: 'wrong-pass' },
      { email: uniqueEmail('nobody'), password: 'secret-pass' },
    ]) {
      const { data, error } = await server.client({ ip: `10.1.0.${Math.floor(Math.random() * 250)}` }).auth.signInWithPassword(attempt);
      expect(data.session).toBeNull();
      expect(error!.status).toBe(400);
      expect(error!.code).toBe('invalid_credentials');
      expect(error!.message).toBe('Invalid login credentials');
    }
  });

  it('throttles repeated failed sign-ins with 429', async () => {
    const email = uniqueEmail('throttle');
    await server.client().auth.signUp({ email, password: 'secret-pass' });
    const client = server.client({ ip: '10.9.9.9' });
    for (let i = 0; i < 5; i++) {
      const { error } = await client.auth.signInWithPassword({ email, password: 'wrong-pass' });
      expect(error!.code).toBe('invalid_credentials');
    }
    const { error } = await client.auth.signInWithPassword({ email, password: 'secret-pass' });
    expect(error!.status).toBe(429);
    expect(error!.code).toBe('over_request_rate_limit');
  });

  it('signOut with scope "others" keeps the current session and ends the rest', async () => {
    const email = uniqueEmail('others');
    await server.client().auth.signUp({ email, password: 'secret-pass' });
    const phone = server.client();
    const laptop = server.client();
    const phoneSession = (await phone.auth.signInWithPassword({ email, password: 'secret-pass' })).data.session!;
    await laptop.auth.signInWithPassword({ email, password: 'secret-pass' });

    expect((await laptop.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await laptop.auth.getUser()).error).toBeNull();
    expect((await server.client().auth.getUser(phoneSession.access_token)).error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('getClaims verifies the ES256 token through the JWKS', async () => {
    const email = uniqueEmail('claims');
    const client = server.client();
    await client.auth.signUp({ email, password: 'secret-pass' });
    const { data, error } = await client.auth.getClaims();
    expect(error).toBeNull();
    expect(data!.header).toMatchObject({ alg: 'ES256', kid: server.keys.signingKey.kid, typ: 'JWT' });
    expect(data!.claims).toMatchObject({ email, role: 'authenticated', aal: 'aal1', aud: 'authenticated' });
  });
});
