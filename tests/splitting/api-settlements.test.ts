import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { threeMemberGroup } from './fixtures.ts';
import { caller } from './http-helpers.ts';

let stack: TestStack;
let call: ReturnType<typeof caller>;
beforeAll(async () => { stack = await startTestStack(); call = caller(stack); });
afterAll(async () => { await stack?.stop(); });

describe('api-settlements and api-activity', () => {
  it('computes the spec example: +30 creditor, −20 and −10 debtors → transfers of 20 and 10', async () => {
    const g = await threeMemberGroup(stack);
    const add = (amount: number, split: string[]) => call('POST', 'api-expenses', { token: g.ann.token, body: {
      group_id: g.groupId, paid_by: g.ann.memberId, amount, description: 'x', split_among: split } });
    await add(20, [g.bob.memberId]);
    await add(10, [g.cy.memberId]);
    const res = await call('GET', `api-settlements?group_id=${g.groupId}`, { token: g.bob.token });
    expect(res.status).toBe(200);
    expect(res.body.balances).toEqual([
      { memberId: g.ann.memberId, memberName: 'Ann', totalPaid: 30, totalOwed: 0, balance: 30 },
      { memberId: g.bob.memberId, memberName: 'Bob', totalPaid: 0, totalOwed: 20, balance: -20 },
      { memberId: g.cy.memberId, memberName: 'Cy', totalPaid: 0, totalOwed: 10, balance: -10 },
    ]);
    expect(res.body.settlements).toEqual([
      { from: g.bob.memberId, from_name: 'Bob', to: g.ann.memberId, to_name: 'Ann', amount: 20 },
      { from: g.cy.memberId, from_name: 'Cy', to: g.ann.memberId, to_name: 'Ann', amount: 10 },
    ]);

    // recording a settlement moves both balances
    const rec = await call('POST', 'api-settlements', { token: g.bob.token, body: {
      group_id: g.groupId, from_member_id: g.bob.memberId, to_member_id: g.ann.memberId, amount: 20, member_id: g.bob.memberId } });
    expect(rec.status).toBe(201);
    expect(rec.body.settlement).toMatchObject({ from_member_id: g.bob.memberId, to_member_id: g.ann.memberId, amount: 20, settled_by: g.bob.memberId });
    const after = await call('GET', `api-settlements?group_id=${g.groupId}`, { token: g.ann.token });
    expect(after.body.balances.map((b: { balance: number }) => b.balance)).toEqual([10, 0, -10]);
    expect(after.body.settlements).toEqual([{ from: g.cy.memberId, from_name: 'Cy', to: g.ann.memberId, to_name: 'Ann', amount: 10 }]);

    const log = await call('GET', `api-activity?group_id=${g.groupId}&limit=1`, { token: g.cy.token });
    expect(log.body.activities).toEqual([{ id: expect.any(String), action: 'SETTLEMENT_RECORDED', details: expect.stringContaining('Bob paid Ann 20.00'), member_id: g.bob.memberId, created_at: expect.any(String) }]);
  });

  it('splits in exact cents: 100.00 among 3 → balances sum to exactly 0', async () => {
    const g = await threeMemberGroup(stack);
    await call('POST', 'api-expenses', { token: g.ann.token, body: { group_id: g.groupId, paid_by: g.ann.memberId, amount: 100, description: 'x', split_among: [] } });
    await call('POST', 'api-expenses', { token: g.ann.token, body: { group_id: g.groupId, paid_by: g.bob.memberId, amount: 0.1, description: 'y', split_among: [g.ann.memberId, g.cy.memberId, g.bob.memberId] } });
    const res = await call('GET', `api-settlements?group_id=${g.groupId}`, { token: g.ann.token });
    const cents = res.body.balances.map((b: { balance: number }) => Math.round(b.balance * 100));
    expect(cents.reduce((a: number, b: number) => a + b, 0)).toBe(0);
    const owed = res.body.balances.map((b: { totalOwed: number }) => Math.round(b.totalOwed * 100)).sort();
    expect(owed.reduce((a: number, b: number) => a + b, 0)).toBe(10010);
    for (const b of res.body.balances) expect(String(b.balance)).toMatch(/^-?\d+(\.\d{1,2})?$/);
  });

  it('offers ?strategy=minimal: +40 +30 +30 −60 −40 in 3 transfers instead of 4', async () => {
    const ann = await stack.signUp({ displayName: 'Ann' });
    const g = (await call('POST', 'api-groups', { token: ann.token, body: { name: 'Five' } })).body;
    const ids = [g.member_id];
    for (const name of ['B', 'C', 'D', 'E']) {
      ids.push((await call('POST', 'api-members', { token: ann.token, body: { group_id: g.group_id, name } })).body.member.id);
    }
    // payers 0,1,2 are owed 40,30,30; members 3,4 owe 60,40
    const pay = (payer: number, debtor: number, amount: number) => call('POST', 'api-expenses', { token: ann.token, body: {
      group_id: g.group_id, paid_by: ids[payer], amount, description: 'x', split_among: [ids[debtor]] } });
    await pay(0, 3, 40); await pay(1, 3, 20); await pay(1, 4, 10); await pay(2, 4, 30);
    const greedy = await call('GET', `api-settlements?group_id=${g.group_id}`, { token: ann.token });
    const minimal = await call('GET', `api-settlements?group_id=${g.group_id}&strategy=minimal`, { token: ann.token });
    expect(greedy.body.settlements).toHaveLength(4);
    expect(minimal.body.settlements).toHaveLength(3);
    expect((await call('GET', `api-settlements?group_id=${g.group_id}&strategy=best`, { token: ann.token })).status).toBe(400);
  });

  it('validates and guards settlements and activity', async () => {
    const g = await threeMemberGroup(stack);
    const eve = await stack.signUp();
    const body = { group_id: g.groupId, from_member_id: g.bob.memberId, to_member_id: g.ann.memberId, amount: 5, member_id: g.bob.memberId };
    expect((await call('GET', `api-settlements?group_id=${g.groupId}`, { token: eve.token })).status).toBe(403);
    expect((await call('POST', 'api-settlements', { token: eve.token, body })).status).toBe(403);
    expect((await call('POST', 'api-settlements', { token: g.bob.token, body: { ...body, to_member_id: g.bob.memberId } })).status).toBe(400);
    expect((await call('POST', 'api-settlements', { token: g.bob.token, body: { ...body, amount: 0 } })).body.error).toMatch(/amount/);
    expect((await call('POST', 'api-settlements', { token: g.bob.token, body: { ...body, member_id: undefined } })).body.error).toMatch(/member_id is required/);
    expect((await call('GET', 'api-settlements?group_id=00000000-0000-4000-8000-000000000000', { token: g.bob.token })).status).toBe(404);
    expect((await call('DELETE', 'api-settlements', { token: g.bob.token })).status).toBe(405);
    expect((await call('GET', `api-activity?group_id=${g.groupId}`, { token: eve.token })).status).toBe(403);
    expect((await call('GET', `api-activity?group_id=${g.groupId}&limit=abc`, { token: g.ann.token })).status).toBe(400);
    expect((await call('GET', `api-activity?group_id=${g.groupId}&limit=0`, { token: g.ann.token })).status).toBe(400);
    expect((await call('POST', `api-activity?group_id=${g.groupId}`, { token: g.ann.token })).status).toBe(405);
    expect((await call('GET', 'api-activity', {})).status).toBe(401);
  });

  it('caps activity at 200 and defaults to 50, newest first', async () => {
    const g = await threeMemberGroup(stack);
    await stack.db.sql`insert into activity_log (group_id, member_id, action, details, created_at)
      select ${g.groupId}, ${g.ann.memberId}, 'EXPENSE_ADDED', 'e' || n, now() - n * interval '1 second' from generate_series(1, 250) n`;
    const def = await call('GET', `api-activity?group_id=${g.groupId}`, { token: g.bob.token });
    expect(def.body.activities).toHaveLength(50);
    const max = await call('GET', `api-activity?group_id=${g.groupId}&limit=1000`, { token: g.bob.token });
    expect(max.body.activities).toHaveLength(200);
    const times = max.body.activities.map((a: { created_at: string }) => Date.parse(a.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});
