// postgres_changes through the real supabase-js client: filters, per-subscriber RLS, token
// errors, as an app sees them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealtimeHarness, subscribed, waitFor, type RealtimeHarness } from './harness.ts';

/** What realtime-js hands the callback (its own type is a union that hides `new`/`old`). */
interface Payload {
  schema: string;
  table: string;
  commit_timestamp: string;
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
  new: Record<string, any>;
  old: Record<string, any>;
  errors: unknown;
}

const G1 = '11111111-1111-4111-8111-111111111111';
const G2 = '22222222-2222-4222-8222-222222222222';
const G3 = '33333333-3333-4333-8333-333333333333';
const ALICE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'; // member of G1 and G2
const BOB = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'; // member of G3 only

const SETUP = `
  create table public.rt_members (group_id uuid not null, user_id uuid not null, primary key (group_id, user_id));
  insert into public.rt_members values ('${G1}', '${ALICE}'), ('${G2}', '${ALICE}'), ('${G3}', '${BOB}');
  create table public.messages (
    id uuid primary key default gen_random_uuid(),
    group_id uuid not null,
    body text,
    amount numeric(14,2),
    tags text[],
    meta jsonb,
    created_at timestamptz not null default now()
  );
  alter table public.messages enable row level security;
  alter table public.messages replica identity full;
  create policy messages_member_read on public.messages for select to authenticated
    using (exists (select 1 from public.rt_members m where m.group_id = messages.group_id and m.user_id = auth.uid()));
  create table public.notes (id bigint generated always as identity primary key, body text);
  alter publication supabase_realtime add table public.messages, public.notes;
`;

let h: RealtimeHarness;
beforeAll(async () => {
  h = await startRealtimeHarness(SETUP);
});
afterAll(async () => {
  await h?.close();
});

describe('postgres_changes with supabase-js', () => {
  it('delivers INSERT, UPDATE and DELETE of the filtered group only, with typed values', async () => {
    const events: Payload[] = [];
    const client = h.client(await h.userToken(ALICE));
    const channel = client
      .channel('alice-g1')
      .on('postgres_changes', { event: '*', schema: 'public', table: 'messages', filter: `group_id=eq.${G1}` }, (p) =>
        events.push(p as unknown as Payload),
      );
    expect(await subscribed(channel)).toEqual({ status: 'SUBSCRIBED', err: undefined });

    // A G2 row (visible to Alice, but filtered out) committed before the G1 row: delivery is in
    // commit order, so once the G1 row arrives the G2 one is known not to have been sent.
    await h.db.sql`insert into messages (group_id, body) values (${G2}, 'other group')`;
    const [row] = await h.db.sql`
      insert into messages (group_id, body, amount, tags, meta)
      values (${G1}, 'hello', 12.50, '{a,"b c"}', '{"k": [1, 2]}') returning id`;
    await waitFor(() => events.length >= 1, 5000, 'the INSERT');
    await h.db.sql`update messages set body = 'edited too' where group_id = ${G2}`;
    await h.db.sql`update messages set body = 'edited' where id = ${row.id}`;
    // The RLS check reads the row when the change arrives (as Supabase does), so deleting it
    // before then would hide the UPDATE: wait for it first.
    await waitFor(() => events.length >= 2, 5000, 'the UPDATE');
    await h.db.sql`delete from messages where id = ${row.id}`;
    await waitFor(() => events.length >= 3, 5000, 'the DELETE');
    await new Promise((r) => setTimeout(r, 200));

    expect(events.map((e) => e.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    const [ins, upd, del] = events;
    expect(ins).toMatchObject({ schema: 'public', table: 'messages', errors: null, old: {} });
    expect(ins.new).toMatchObject({ id: row.id, group_id: G1, body: 'hello', amount: 12.5, tags: ['a', 'b c'], meta: { k: [1, 2] } });
    expect(ins.new.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
    expect(Date.parse(ins.commit_timestamp)).not.toBeNaN();
    expect(upd.new).toMatchObject({ id: row.id, body: 'edited' });
    // RLS is on, so the old row reveals only its key (as on Supabase).
    expect(upd.old).toEqual({ id: row.id });
    expect(del.new).toEqual({});
    expect(del.old).toEqual({ id: row.id });
  });

  it('does not send a row the subscriber may not SELECT', async () => {
    const events: Payload[] = [];
    const client = h.client(await h.userToken(BOB));
    const channel = client
      .channel('bob-all')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'messages' }, (p) => events.push(p as unknown as Payload));
    expect((await subscribed(channel)).status).toBe('SUBSCRIBED');

    await h.db.sql`insert into messages (group_id, body) values (${G1}, 'hidden from bob')`;
    await h.db.sql`insert into messages (group_id, body) values (${G3}, 'for bob')`;
    await waitFor(() => events.length >= 1, 5000, "Bob's row");
    await new Promise((r) => setTimeout(r, 200));
    expect(events.map((e) => e.new.body)).toEqual(['for bob']);
  });

  it('sends anon subscribers of a table without RLS everything, with a bigint key as a number', async () => {
    const events: Payload[] = [];
    const client = h.client();
    const channel = client
      .channel('anon-notes')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notes', filter: 'body=in.(one,"two, three")' }, (p) =>
        events.push(p as unknown as Payload),
      );
    expect((await subscribed(channel)).status).toBe('SUBSCRIBED');
    await h.db.sql`insert into notes (body) values ('zero'), ('one'), ('two, three')`;
    await waitFor(() => events.length >= 2, 5000, 'the notes');
    expect(events.map((e) => e.new.body)).toEqual(['one', 'two, three']);
    expect(typeof events[0].new.id).toBe('number');
  });

  it('rejects a join with an expired token: CHANNEL_ERROR naming the expiry', async () => {
    const client = h.client(await h.userToken(ALICE, { expiresIn: -30 }));
    const channel = client
      .channel('expired')
      .on('postgres_changes', { event: '*', schema: 'public', table: 'messages' }, () => {});
    const { status, err } = await subscribed(channel);
    expect(status).toBe('CHANNEL_ERROR');
    expect(err?.message).toMatch(/^InvalidJWTToken: Token has expired \d+ seconds ago$/);
  });

  it('answers a bad filter with a postgres_changes system error', async () => {
    const system: any[] = [];
    const client = h.client(await h.userToken(ALICE));
    const channel = client
      .channel('bad-filter')
      .on('system', {}, (p) => system.push(p))
      .on('postgres_changes', { event: '*', schema: 'public', table: 'messages', filter: 'group_id=between.1' }, () => {});
    await subscribed(channel);
    await waitFor(() => system.length >= 1, 5000, 'the system message');
    expect(system[0]).toMatchObject({ extension: 'postgres_changes', status: 'error', channel: 'bad-filter' });
    expect(system[0].message).toMatch(/filter/);
  });

  it('answers a table outside the publication with a system error', async () => {
    const system: any[] = [];
    const client = h.client(await h.userToken(ALICE));
    const channel = client
      .channel('not-published')
      .on('system', {}, (p) => system.push(p))
      .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_members' }, () => {});
    await subscribed(channel);
    await waitFor(() => system.length >= 1, 5000, 'the system message');
    expect(system[0]).toMatchObject({ extension: 'postgres_changes', status: 'error' });
    expect(system[0].message).toMatch(/Unable to subscribe/);
  });

  it('broadcasts to the other subscribers of a topic, and to self only when asked', async () => {
    const got: { who: string; payload: any }[] = [];
    const a = h.client(await h.userToken(ALICE)).channel('room', { config: { broadcast: { self: true, ack: true } } });
    const b = h.client(await h.userToken(BOB)).channel('room');
    a.on('broadcast', { event: 'ping' }, (m) => got.push({ who: 'a', payload: m.payload }));
    b.on('broadcast', { event: 'ping' }, (m) => got.push({ who: 'b', payload: m.payload }));
    expect((await subscribed(a)).status).toBe('SUBSCRIBED');
    expect((await subscribed(b)).status).toBe('SUBSCRIBED');
    expect(await a.send({ type: 'broadcast', event: 'ping', payload: { n: 1 } })).toBe('ok');
    await waitFor(() => got.length >= 2, 5000, 'both deliveries');
    expect(got.map((g) => g.who).sort()).toEqual(['a', 'b']);
    expect(got[0].payload).toEqual({ n: 1 });
  });

  it('shares presence between subscribers of a topic', async () => {
    const a = h.client(await h.userToken(ALICE)).channel('lobby', { config: { presence: { key: 'alice' } } });
    const b = h.client(await h.userToken(BOB)).channel('lobby', { config: { presence: { key: 'bob' } } });
    a.on('presence', { event: 'sync' }, () => {});
    b.on('presence', { event: 'sync' }, () => {});
    expect((await subscribed(a)).status).toBe('SUBSCRIBED');
    expect((await subscribed(b)).status).toBe('SUBSCRIBED');
    expect(await a.track({ online: true })).toBe('ok');
    await waitFor(() => 'alice' in b.presenceState(), 5000, 'alice in bob’s presence state');
    expect(b.presenceState().alice[0]).toMatchObject({ online: true });
  });

  it('keeps running after garbage frames', async () => {
    const { default: WebSocket } = await import('ws');
    const ws = new WebSocket(`${h.wsUrl}?apikey=${h.keys.publishableKey}&vsn=2.0.0`);
    await new Promise((r) => ws.once('open', r));
    ws.send('not json');
    ws.send(Buffer.from([9, 9, 9]));
    ws.send(JSON.stringify([null, '1', 'phoenix', 'heartbeat', {}]));
    const [frame] = await new Promise<any[]>((r) => ws.once('message', (d) => r([JSON.parse(String(d))])));
    expect(frame).toEqual([null, '1', 'phoenix', 'phx_reply', { status: 'ok', response: {} }]);
    ws.close();
  });
});
