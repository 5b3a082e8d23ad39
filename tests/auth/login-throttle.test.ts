// Failed password grants are throttled per (email, ip) and per ip, with state in Postgres.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, uniqueEmail, type AuthServer } from './auth-server.ts';

let server: AuthServer;
beforeAll(async () => {
  server = await startAuthServer({ maxFailedLogins: 3, maxFailedLoginsPerIp: 6, failedLoginWindowSeconds: 300 });
});
afterAll(async () => {
  await server?.close();
});

async function newUser(): Promise<string> {
  const email = uniqueEmail('throttle');
  const response = await server.call('/signup', { body: { email, password: 'secret-pass' } });
  expect(response.status).toBe(200);
  return email;
}

const signIn = (email: string, password: string, ip: string) =>
  server.call('/token?grant_type=password', { body: { email, password }, ip });

describe('login throttling', () => {
  it('refuses even the right password with 429 once an account has too many failures from one ip', async () => {
    const email = await newUser();
    for (let i = 0; i < 3; i++) expect((await signIn(email, 'wrong-pass', '10.0.0.1')).status).toBe(400);
    const blocked = await signIn(email, 'secret-pass', '10.0.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await blocked.json();
    expect(body).toMatchObject({ code: 'over_request_rate_limit', error_code: 'over_request_rate_limit' });

    // Another address is not affected, and the failures are kept in Postgres.
    expect((await signIn(email, 'secret-pass', '10.0.0.2')).status).toBe(200);
    const [{ count }] = await server.db.sql<{ count: number }[]>`
      select count(*)::int as count from auth.login_attempts where email = ${email} and ip = '10.0.0.1'`;
    expect(count).toBe(3);
  });

  it('counts email case-insensitively', async () => {
    const email = await newUser();
    for (let i = 0; i < 3; i++) await signIn(i % 2 ? email.toUpperCase() : email, 'wrong-pass', '10.0.1.1');
    expect((await signIn(email.toUpperCase(), 'secret-pass', '10.0.1.1')).status).toBe(429);
  });

  it('clears the failures of a pair on a successful sign-in', async () => {
    const email = await newUser();
    for (let i = 0; i < 2; i++) await signIn(email, 'wrong-pass', '10.0.2.1');
    expect((await signIn(email, 'secret-pass', '10.0.2.1')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await signIn(email, 'wrong-pass', '10.0.2.1')).status).toBe(400);
    expect((await signIn(email, 'secret-pass', '10.0.2.1')).status).toBe(200);
  });

  it('forgets failures older than the window', async () => {
    const email = await newUser();
    for (let i = 0; i < 3; i++) await signIn(email, 'wrong-pass', '10.0.3.1');
    expect((await signIn(email, 'secret-pass', '10.0.3.1')).status).toBe(429);
    await server.db.sql`update auth.login_attempts set attempted_at = now() - interval '10 minutes'
                        where email = ${email}`;
    expect((await signIn(email, 'secret-pass', '10.0.3.1')).status).toBe(200);
  });

  it('limits one ip trying many accounts', async () => {
    const ip = '10.0.4.1';
    for (let i = 0; i < 6; i++) {
      expect((await signIn(uniqueEmail('stuffing'), 'guess-123', ip)).status).toBe(400);
    }
    const email = await newUser();
    expect((await signIn(email, 'secret-pass', ip)).status).toBe(429);
    expect((await signIn(email, 'secret-pass', '10.0.4.2')).status).toBe(200);
  });

  it('does not let a parallel burst of guesses slip past the limit', async () => {
    const email = await newUser();
    const statuses = await Promise.all(Array.from({ length: 8 }, () => signIn(email, 'wrong-pass', '10.0.5.1')));
    const codes = statuses.map((r) => r.status).sort();
    expect(codes.filter((s) => s === 400)).toHaveLength(3);
    expect(codes.filter((s) => s === 429)).toHaveLength(5);
  });
});
