import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { threeMemberGroup } from './fixtures.ts';
import { caller } from './http-helpers.ts';

let stack: TestStack;
let call: ReturnType<typeof caller>;
beforeAll(async () => { stack = await startTestStack(); call = caller(stack); });
afterAll(async () => { await stack?.stop(); });

describe('api-share-settings and api-shared-view', () => {
  it('moves sharing disabled → enabled → disabled, creator only, never returning the hash', async () => {
    const g = await threeMemberGroup(stack);
    const get = (token: string) => call('GET', `api-share-settings?group_id=${g.groupId}`, { token });
    expect(await get(g.bob.token)).toEqual({ status: 200, body: { sharing_enabled: false, is_creator: false } });
    expect((await get(g.ann.token)).body).toEqual({ sharing_enabled: false, is_creator: true });
    const put = (token: string, share_password: unknown) => call('PUT', `api-share-settings?group_id=${g.groupId}`, { token, body: { share_password } });
    expect((await put(g.bob.token, 'pw')).status).toBe(403);
    const on = await put(g.ann.token, 'open sesame');
    expect(on).toEqual({ status: 200, body: { message: expect.stringMatching(/enabled/i), sharing_enabled: true } });
    expect(JSON.stringify(on.body)).not.toContain('$2');
    expect((await get(g.bob.token)).body.sharing_enabled).toBe(true);
    const [row] = await stack.db.sql`select share_password from expense_groups where id = ${g.groupId}`;
    expect(row.share_password).toMatch(/^\$2[abxy]\$/);

    const view = await call('POST', 'api-shared-view', { apikey: stack.keys.publishableKey, body: { code: g.code, password: 'open sesame' } });
    expect(view.status).toBe(200);
    expect(view.body).toEqual({ group_name: 'Trip', group_code: g.code, members: expect.any(Array), expenses: [], balances: expect.any(Array), total_expenses: 0 });
    expect(JSON.stringify(view.body)).not.toContain('$2');

    expect((await put(g.ann.token, '')).body).toEqual({ message: expect.stringMatching(/disabled/i), sharing_enabled: false });
    expect((await call('POST', 'api-shared-view', { body: { code: g.code, password: 'open sesame' } })).status).toBe(403);
    await put(g.ann.token, 'again');
    expect((await put(g.ann.token, null)).body.sharing_enabled).toBe(false);
    expect((await put(g.ann.token, undefined)).status).toBe(400);
    expect((await put(g.ann.token, 5)).status).toBe(400);
    const eve = await stack.signUp();
    expect((await get(eve.token)).status).toBe(403);
    expect((await call('DELETE', `api-share-settings?group_id=${g.groupId}`, { token: g.ann.token })).status).toBe(405);
    expect((await call('GET', 'api-share-settings', { token: g.ann.token })).status).toBe(400);
  });

  it('shows the group read-only with code and password; 404, 401, 403 and 429 otherwise', async () => {
    const g = await threeMemberGroup(stack);
    await call('POST', 'api-expenses', { token: g.ann.token, body: { group_id: g.groupId, paid_by: g.ann.memberId, amount: 30, description: 'Boat', split_among: [], category: 'transport' } });
    await call('POST', 'api-expenses', { token: g.ann.token, body: { group_id: g.groupId, paid_by: g.bob.memberId, amount: 0.05, description: 'Gum', split_among: [] } });
    await call('PUT', `api-share-settings?group_id=${g.groupId}`, { token: g.ann.token, body: { share_password: 'pw' } });
    const view = (password: string, ip = '10.0.0.1', code = g.code) =>
      call('POST', 'api-shared-view', { body: { code, password }, headers: { 'x-real-ip': ip } });
    const ok = await view('pw');
    expect(ok.status).toBe(200);
    expect(ok.body.members).toEqual([{ id: g.ann.memberId, name: 'Ann' }, { id: g.bob.memberId, name: 'Bob' }, { id: g.cy.memberId, name: 'Cy' }]);
    expect(ok.body.expenses.map((e: { description: string; amount: number }) => [e.description, e.amount])).toEqual([['Gum', 0.05], ['Boat', 30]]);
    expect(ok.body.total_expenses).toBe(30.05);
    expect(ok.body.balances.map((b: { balance: number }) => Math.round(b.balance * 100)).reduce((a: number, b: number) => a + b)).toBe(0);
    // 0.05 among 3: 1 cent each, the 2 leftover cents to the first two member ids
    const [annRow] = ok.body.balances;
    expect(annRow).toMatchObject({ memberId: g.ann.memberId, memberName: 'Ann', totalPaid: 30 });
    expect([10.01, 10.02]).toContain(annRow.totalOwed);
    expect(ok.body.balances.map((b: { totalOwed: number }) => Math.round(b.totalOwed * 100)).sort()).toEqual([1001, 1002, 1002]);

    const [{ code: unused }] = await stack.db.sql`select lpad(n::text, 4, '0') as code from generate_series(0, 9999) n
      where lpad(n::text, 4, '0') not in (select code from expense_groups) limit 1`;
    expect(await view('pw', '10.0.0.1', unused)).toEqual({ status: 404, body: { error: 'Group not found' } });
    expect(await view('nope')).toEqual({ status: 401, body: { error: 'Wrong password' } });
    expect((await call('POST', 'api-shared-view', { body: { code: g.code } })).body.error).toMatch(/password is required/);
    expect((await call('POST', 'api-shared-view', { rawBody: 'nope' })).status).toBe(400);
    expect((await call('GET', 'api-shared-view', {})).status).toBe(405);

  });

  it('throttles after 10 failures in 15 minutes per group and client IP', async () => {
    const g = await threeMemberGroup(stack);
    await call('PUT', `api-share-settings?group_id=${g.groupId}`, { token: g.ann.token, body: { share_password: 'pw' } });
    // the gateway overrides x-real-ip with the peer address, so all of these come from one IP
    for (let i = 0; i < 10; i++) {
      expect((await call('POST', 'api-shared-view', { body: { code: g.code, password: 'bad' } })).status).toBe(401);
    }
    const blocked = await call('POST', 'api-shared-view', { body: { code: g.code, password: 'pw' } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatch(/Too many/);
    // failures older than 15 minutes no longer count
    await stack.db.sql`update app.share_view_failures set failed_at = now() - interval '16 minutes' where group_id = ${g.groupId}`;
    expect((await call('POST', 'api-shared-view', { body: { code: g.code, password: 'pw' } })).status).toBe(200);
  });
});
