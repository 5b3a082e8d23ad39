// Shared by the benchmarks: an embedded PostgreSQL with the migrations applied, a stack on it,
// autocannon and percentile helpers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { startEmbeddedPostgres } from '../packages/local/src/embedded-postgres.ts';
import { loadLocalKeys } from '../packages/local/src/keys.ts';
import { applyMigrations, applyPlatformSql } from '../packages/local/src/migrate.ts';
import { startStack, type Stack, type StackOptions } from '../packages/local/src/stack.ts';
import { freePort } from '../packages/local/src/free-port.ts';

export interface BenchStack extends Stack {
  databaseUrl: string;
  /** Signs up a user through the real auth server; returns its access token and id. */
  signUp(email: string): Promise<{ token: string; userId: string }>;
  close(): Promise<void>;
}

export async function startBenchStack(opts: Pick<StackOptions, 'extraFunctions'> = {}): Promise<BenchStack> {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerbase-bench-'));
  const pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort() });
  const databaseUrl = pg.url();
  const sql = postgres(databaseUrl, { onnotice: () => {}, max: 1 });
  await applyPlatformSql(sql);
  await applyMigrations(sql);
  await sql.end();
  const keys = await loadLocalKeys(join(dir, 'keys'), {});
  const stack = await startStack({ databaseUrl, keys, log: () => {}, workers: false, ...opts });
  return {
    ...stack,
    databaseUrl,
    async signUp(email) {
      const res = await fetch(`${stack.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'bench-password', data: { display_name: email.split('@')[0] } }),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(`signup failed: ${JSON.stringify(body)}`);
      return { token: body.access_token, userId: body.user.id };
    },
    async close() {
      await stack.stop();
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function loadTest(opts: { url: string; headers?: Record<string, string>; connections?: number; seconds?: number; method?: 'GET' | 'POST'; body?: string }): Promise<{ rps: number; p50: number; p99: number; errors: number; non2xx: number }> {
  const result = await autocannon({
    url: opts.url,
    headers: opts.headers,
    method: opts.method ?? 'GET',
    body: opts.body,
    connections: opts.connections ?? 50,
    duration: opts.seconds ?? 8,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** Times `fn` `n` times sequentially after `warmup` runs; returns the median in ms. */
export async function medianMs(n: number, fn: () => Promise<unknown>, warmup = 3): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);
