// Refresh-token rotation and reuse detection (GoTrue's rules), through supabase-js and the wire.
import { AuthSessionMissingError, type Session } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, uniqueEmail, type AuthServer } from './auth-server.ts';

async function signedUp(server: AuthServer): Promise<Session> {
  const { data, error } = await server.client().auth.signUp({ email: uniqueEmail('rot'), password: 'secret-pass' });
  if (error) throw error;
  return data.session!;
}

async function refresh(server: AuthServer, refreshToken: string) {
  return server.client().auth.refreshSession({ refresh_token: refreshToken });
}

describe('with no reuse interval', () => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer({ refreshTokenReuseIntervalSeconds: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('rotates: each refresh returns a new token in the same session, with the user', async () => {
    const t0 = await signedUp(server);
    const r1 = await refresh(server, t0.refresh_token);
    expect(r1.error).toBeNull();
    const t1 = r1.data.session!;
    expect(t1.refresh_token).not.toBe(t0.refresh_token);
    expect(r1.data.user!.id).toBe(t0.user.id);
    const claims0 = JSON.parse(atob(t0.access_token.split('.')[1]));
    const claims1 = JSON.parse(atob(t1.access_token.split('.')[1]));
    expect(claims1.session_id).toBe(claims0.session_id);

    const rows = await server.db.sql<{ token: string; parent: string | null; revoked: boolean }[]>`
      select token, parent, revoked from auth.refresh_tokens where session_id = ${claims0.session_id} order by id`;
    expect(rows).toEqual([
      { token: t0.refresh_token, parent: null, revoked: true },
      { token: t1.refresh_token, parent: t0.refresh_token, revoked: false },
    ]);
  });

  it('gives the live token back when the parent of the live token is presented again', async () => {
    const t0 = await signedUp(server);
    const t1 = (await refresh(server, t0.refresh_token)).data.session!;
    const again = await refresh(server, t0.refresh_token);
    expect(again.error).toBeNull();
    expect(again.data.session!.refresh_token).toBe(t1.refresh_token);
  });

  it('revokes the whole session when an older token is reused', async () => {
    const t0 = await signedUp(server);
    const t1 = (await refresh(server, t0.refresh_token)).data.session!;
    const t2 = (await refresh(server, t1.refresh_token)).data.session!;

    const reuse = await refresh(server, t0.refresh_token);
    expect(reuse.error!.status).toBe(400);
    expect(reuse.error!.code).toBe('refresh_token_already_used');

    // Every token of the session is dead now: the access token, and the live refresh token.
    const user = await server.client().auth.getUser(t2.access_token);
    expect(user.error).toBeInstanceOf(AuthSessionMissingError);
    const raw = await server.call('/user', { token: t2.access_token });
    expect(raw.status).toBe(403);
    expect((await raw.json()).code).toBe('session_not_found');
    const live = await refresh(server, t2.refresh_token);
    expect(live.error!.code).toBe('refresh_token_not_found');
  });

  it('leaves other sessions of the user alone when one session is revoked', async () => {
    const email = uniqueEmail('two-sessions');
    await server.client().auth.signUp({ email, password: 'secret-pass' });
    const a = (await server.client().auth.signInWithPassword({ email, password: 'secret-pass' })).data.session!;
    const b = (await server.client().auth.signInWithPassword({ email, password: 'secret-pass' })).data.session!;
    const a1 = (await refresh(server, a.refresh_token)).data.session!;
    await refresh(server, a1.refresh_token);
    expect((await refresh(server, a.refresh_token)).error!.code).toBe('refresh_token_already_used');
    expect((await server.client().auth.getUser(b.access_token)).error).toBeNull();
  });

  it('answers an unknown token with refresh_token_not_found', async () => {
    const { error } = await refresh(server, 'no-such-token');
    expect(error!.status).toBe(400);
    expect(error!.code).toBe('refresh_token_not_found');
  });

  it('serialises concurrent refreshes of one token: all get the same child, one token stays live', async () => {
    const t0 = await signedUp(server);
    const results = await Promise.all(Array.from({ length: 8 }, () => refresh(server, t0.refresh_token)));
    for (const r of results) expect(r.error).toBeNull();
    const tokens = new Set(results.map((r) => r.data.session!.refresh_token));
    expect(tokens.size).toBe(1);
    const sessionId = JSON.parse(atob(t0.access_token.split('.')[1])).session_id;
    const [{ live }] = await server.db.sql<{ live: number }[]>`
      select count(*)::int as live from auth.refresh_tokens where session_id = ${sessionId} and not revoked`;
    expect(live).toBe(1);
  });
});

describe('within the reuse interval', () => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer({ refreshTokenReuseIntervalSeconds: 60 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lets a recently revoked token through and returns the live token', async () => {
    const t0 = await signedUp(server);
    const t1 = (await refresh(server, t0.refresh_token)).data.session!;
    const t2 = (await refresh(server, t1.refresh_token)).data.session!;
    const late = await refresh(server, t0.refresh_token);
    expect(late.error).toBeNull();
    expect(late.data.session!.refresh_token).toBe(t2.refresh_token);
    expect((await server.client().auth.getUser(t2.access_token)).error).toBeNull();
  });

  it('still detects reuse once the interval has passed', async () => {
    const t0 = await signedUp(server);
    const t1 = (await refresh(server, t0.refresh_token)).data.session!;
    await refresh(server, t1.refresh_token);
    // Age the revocation instead of sleeping a minute.
    await server.db.sql`update auth.refresh_tokens set updated_at = now() - interval '2 minutes'
                        where token = ${t0.refresh_token}`;
    expect((await refresh(server, t0.refresh_token)).error!.code).toBe('refresh_token_already_used');
  });
});
