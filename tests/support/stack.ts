// Boots the whole local platform (gateway, auth, functions, realtime, workers) on a fresh cloned
// database, on a free port, for one test file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { loadLocalKeys } from '../../packages/local/src/keys.ts';
import { startStack, type Stack, type StackOptions } from '../../packages/local/src/stack.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

export interface TestStack extends Stack {
  db: TestDatabase;
  /** A supabase-js client with the given key (default anon) and no persisted session. */
  client(key?: string): SupabaseClient;
  /** Signs up a fresh user and returns its access token and id. */
  signUp(opts?: { email?: string; password?: string; displayName?: string }): Promise<{ token: string; userId: string; email: string; password: string }>;
  stop(): Promise<void>;
}

let userCounter = 0;

export async function startTestStack(opts: Pick<StackOptions, 'extraFunctions' | 'workers'> = {}): Promise<TestStack> {
  const db = await createTestDatabase();
  const keyDir = mkdtempSync(join(tmpdir(), 'ledgerbase-keys-'));
  const keys = await loadLocalKeys(keyDir, {});
  const stack = await startStack({ databaseUrl: db.url, keys, log: () => {}, ...opts });
  const client = (key = keys.anonKey) =>
    createClient(stack.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    });
  return {
    ...stack,
    db,
    client,
    async signUp(o = {}) {
      const email = o.email ?? `user${process.pid}x${userCounter++}@example.com`;
      const password = o.password ?? 'correct-horse-battery';
      const { data, error } = await client().auth.signUp({
        email,
        password,
        options: { data: { display_name: o.displayName ?? email.split('@')[0] } },
      });
      if (error || !data.session || !data.user) throw new Error(`signUp failed: ${error?.message}`);
      return { token: data.session.access_token, userId: data.user.id, email, password };
    },
    async stop() {
      await stack.stop();
      await db.drop();
      rmSync(keyDir, { recursive: true, force: true });
    },
  };
}
