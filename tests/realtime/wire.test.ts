// The Phoenix frames themselves, over a raw websocket: what Supabase Realtime sends (reference
// §4) for join, system, changes, access_token, leave, and the connection's apikey rules.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '../../packages/edge/src/jwt.ts';
import { createRealtimeServer } from '../../packages/local/src/realtime/server.ts';
import { startRealtimeHarness, waitFor, type RealtimeHarness } from './harness.ts';

const SETUP = `
  create table public.items (id int primary key, label text, done boolean not null default false);
  alter publication supabase_realtime add table public.items;
`;

let h: RealtimeHarness;
beforeAll(async () => {
  h = await startRealtimeHarness(SETUP);
});
afterAll(async () => {
  await h?.close();
});

/** A raw socket that records every decoded frame. */
async function connect(query: string) {
  const ws = new WebSocket(`${h.wsUrl}?${query}`);
  const frames: any[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(String(d))));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return {
    frames,
    send: (frame: unknown) => ws.send(JSON.stringify(frame)),
    next: async (pred: (f: any) => boolean) => {
      await waitFor(() => frames.some(pred), 5000, 'a frame');
      return frames.find(pred);
    },
    close: () => ws.close(),
  };
}

const binding = { event: '*', schema: 'public', table: 'items', filter: 'id=gte.10' };

describe('realtime wire protocol', () => {
  it('joins, confirms, streams a change, re-authenticates and leaves with vsn 2.0.0 frames', async () => {
    const s = await connect(`apikey=${h.keys.anonKey}&vsn=2.0.0`);
    s.send(['6', '6', 'realtime:room1', 'phx_join', { config: { postgres_changes: [binding] }, access_token: h.keys.publishableKey }]);
    const joined = await s.next((f) => f[3] === 'phx_reply');
    expect(joined.slice(0, 4)).toEqual(['6', '6', 'realtime:room1', 'phx_reply']);
    expect(joined[4].status).toBe('ok');
    const [echo] = joined[4].response.postgres_changes;
    expect(echo).toMatchObject(binding);
    expect(Number.isInteger(echo.id) && echo.id > 0).toBe(true);
    expect(await s.next((f) => f[3] === 'system')).toEqual([
      '6',
      null,
      'realtime:room1',
      'system',
      { extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL', channel: 'room1' },
    ]);

    await h.db.sql`insert into items values (1, 'filtered out'), (10, 'ten')`;
    const change = await s.next((f) => f[3] === 'postgres_changes');
    expect(change.slice(0, 4)).toEqual([null, null, 'realtime:room1', 'postgres_changes']);
    expect(change[4].ids).toEqual([echo.id]);
    expect(change[4].data).toMatchObject({
      schema: 'public',
      table: 'items',
      type: 'INSERT',
      columns: [
        { name: 'id', type: 'int4' },
        { name: 'label', type: 'text' },
        { name: 'done', type: 'bool' },
      ],
      record: { id: 10, label: 'ten', done: false },
      errors: null,
    });
    expect(change[4].data).not.toHaveProperty('old_record');

    // An invalid refreshed token ends the channel, as Realtime does.
    s.send(['6', '7', 'realtime:room1', 'access_token', { access_token: 'not-a-jwt' }]);
    const sys = await s.next((f) => f[3] === 'system' && f[4].extension === 'system');
    expect(sys[4]).toMatchObject({ status: 'error' });
    expect(sys[4].message).toMatch(/^InvalidJWTToken/);
    expect(await s.next((f) => f[3] === 'phx_close')).toEqual(['6', '6', 'realtime:room1', 'phx_close', {}]);
    s.close();
  });

  it('replies to phx_leave and closes; heartbeats on "phoenix"; vsn 1.0.0 objects', async () => {
    const s = await connect(`apikey=${h.keys.secretKey}&vsn=1.0.0`);
    s.send({ join_ref: '1', ref: '1', topic: 'realtime:r', event: 'phx_join', payload: { config: {} } });
    const joined = await s.next((f) => f.event === 'phx_reply' && f.ref === '1');
    expect(joined).toEqual({ join_ref: '1', ref: '1', topic: 'realtime:r', event: 'phx_reply', payload: { status: 'ok', response: { postgres_changes: [] } } });
    s.send({ join_ref: null, ref: '2', topic: 'phoenix', event: 'heartbeat', payload: {} });
    expect((await s.next((f) => f.ref === '2')).payload).toEqual({ status: 'ok', response: {} });
    s.send({ join_ref: '1', ref: '3', topic: 'realtime:r', event: 'phx_leave', payload: {} });
    expect((await s.next((f) => f.ref === '3')).payload).toEqual({ status: 'ok', response: {} });
    expect(await s.next((f) => f.event === 'phx_close')).toMatchObject({ join_ref: '1', topic: 'realtime:r' });
    s.send({ join_ref: '1', ref: '4', topic: 'realtime:r', event: 'broadcast', payload: {} });
    expect((await s.next((f) => f.ref === '4')).payload).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });
    s.close();
  });

  it('uses the new claims after an access_token push', async () => {
    await h.db.sql.unsafe(`
      create table public.secrets (id int primary key, owner uuid);
      alter table public.secrets enable row level security;
      create policy own on public.secrets for select to authenticated using (owner = auth.uid());
      alter publication supabase_realtime add table public.secrets;`);
    const alice = crypto.randomUUID();
    const bob = crypto.randomUUID();
    const s = await connect(`apikey=${h.keys.publishableKey}&vsn=2.0.0`);
    s.send(['1', '1', 'realtime:s', 'phx_join', { config: { postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'secrets' }] }, access_token: await h.userToken(bob) }]);
    await s.next((f) => f[3] === 'system');
    // Alice's row 1 is hidden from Bob; Bob's row 0 after it marks that row 1 was handled.
    await h.db.sql`insert into secrets values (1, ${alice})`;
    await h.db.sql`insert into secrets values (0, ${bob})`;
    await s.next((f) => f[3] === 'postgres_changes');
    s.send(['1', '2', 'realtime:s', 'access_token', { access_token: await h.userToken(alice) }]);
    s.send([null, '3', 'phoenix', 'heartbeat', {}]);
    await s.next((f) => f[1] === '3');
    await h.db.sql`insert into secrets values (2, ${alice})`;
    await s.next((f) => f[3] === 'postgres_changes' && f[4].data.record.id === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(s.frames.filter((f) => f[3] === 'postgres_changes').map((f) => f[4].data.record.id)).toEqual([0, 2]);
    s.close();
  });

  it('refuses a connection with an unknown apikey', async () => {
    const ws = new WebSocket(`${h.wsUrl}?apikey=sb_publishable_nope&vsn=2.0.0`);
    const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(401);
  });

  it('tells joined channels on close, then drops its replication slot', async () => {
    const keys = h.keys;
    const server = createRealtimeServer({
      databaseUrl: h.db.url,
      keys,
      verifyToken: createTokenVerifier({ jwks: keys.jwks as { keys: JsonWebKey[] }, jwtSecret: keys.jwtSecret }),
      log: () => {},
    });
    await server.ready();
    const slots = () => h.db.sql`select count(*)::int as n from pg_replication_slots where database = current_database()`;
    expect((await slots())[0].n).toBe(2); // the harness's and this one

    const http = createServer();
    http.on('upgrade', (req, socket, head) => server.handleUpgrade(req, socket, head));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const ws = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/realtime/v1/websocket?apikey=${keys.anonKey}&vsn=2.0.0`);
    const frames: any[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify(['5', '5', 'realtime:bye', 'phx_join', { config: {} }]));
    await waitFor(() => frames.length === 1, 5000, 'the join reply');
    const closed = new Promise((r) => ws.once('close', r));

    await server.close();
    await closed;
    expect(frames.slice(1).map((f) => [f[3], f[4].extension, f[4].status])).toEqual([
      ['system', 'system', 'error'],
      ['phx_close', undefined, undefined],
    ]);
    http.close();
    let n = 2;
    for (let i = 0; i < 50 && n !== 1; i++) {
      n = (await slots())[0].n;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(n).toBe(1);
  });
});
