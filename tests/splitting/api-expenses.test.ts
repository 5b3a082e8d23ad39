import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { threeMemberGroup } from './fixtures.ts';
import { caller } from './http-helpers.ts';

let stack: TestStack;
let call: ReturnType<typeof caller>;
let g: Awaited<ReturnType<typeof threeMemberGroup>>;
beforeAll(async () => { stack = await startTestStack(); call = caller(stack); g = await threeMemberGroup(stack); });
afterAll(async () => { await stack?.stop(); });

const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('api-expenses', () => {
  it('creates, lists (newest first), updates and deletes expenses, logging each with the actor', async () => {
    const first = await call('POST', 'api-expenses', { token: g.bob.token, body: {
      group_id: g.groupId, paid_by: g.ann.memberId, amount: 45.5, description: 'Dinner',
      split_among: [g.bob.memberId, g.ann.memberId], category: 'food', created_at: '2026-01-02T19:00:00Z',
    } });
    expect(first.status).toBe(201);
    expect(first.body.expense).toEqual({
      id: expect.any(String), group_id: g.groupId, paid_by: g.ann.memberId, amount: 45.5, description: 'Dinner',
      split_among: [g.ann.memberId, g.bob.memberId].sort(), category: 'food',
      created_at: '2026-01-02T19:00:00.000Z', updated_at: expect.any(String),
    });
    const second = await call('POST', 'api-expenses', { token: g.ann.token, body: {
      group_id: g.groupId, paid_by: g.cy.memberId, amount: 12, description: 'Taxi', split_among: [], category: null,
    } });
    expect(second.status).toBe(201);

    const list = await call('GET', `api-expenses?group_id=${g.groupId}`, { token: g.cy.token });
    expect(list.status).toBe(200);
    expect(list.body.expenses.map((e: { description: string }) => e.description)).toEqual(['Taxi', 'Dinner']);

    const updated = await call('PUT', `api-expenses/${first.body.expense.id}`, { token: g.cy.token, body: {
      amount: 50, description: 'Dinner + wine', paid_by: g.ann.memberId, split_among: [], category: 'food', member_id: g.cy.memberId,
    } });
    expect(updated.status).toBe(200);
    expect(updated.body.expense).toMatchObject({ amount: 50, description: 'Dinner + wine', split_among: [] });
    expect(Date.parse(updated.body.expense.updated_at)).toBeGreaterThan(Date.parse(first.body.expense.updated_at));

    const del = await call('DELETE', `api-expenses/${second.body.expense.id}?member_id=${g.bob.memberId}`, { token: g.bob.token });
    expect(del).toEqual({ status: 200, body: { message: expect.any(String) } });

    const log = await call('GET', `api-activity?group_id=${g.groupId}`, { token: g.ann.token });
    const entries = log.body.activities.map((a: { action: string; member_id: string }) => [a.action, a.member_id]);
    expect(entries.slice(0, 4)).toEqual([
      ['EXPENSE_DELETED', g.bob.memberId],
      ['EXPENSE_UPDATED', g.cy.memberId],
      ['EXPENSE_CREATED', g.ann.memberId],
      ['EXPENSE_CREATED', g.bob.memberId],
    ]);
    expect(log.body.activities[0].details).toContain('Taxi');
  });

  it('refuses non-members with 403 and unknown ids with 404', async () => {
    const eve = await stack.signUp({ displayName: 'Eve' });
    const e = (await call('POST', 'api-expenses', { token: g.ann.token, body: {
      group_id: g.groupId, paid_by: g.ann.memberId, amount: 1, description: 'x', split_among: [], category: 'other' } })).body.expense;
    expect((await call('GET', `api-expenses?group_id=${g.groupId}`, { token: eve.token })).status).toBe(403);
    expect((await call('POST', 'api-expenses', { token: eve.token, body: {
      group_id: g.groupId, paid_by: g.ann.memberId, amount: 1, description: 'x' } })).status).toBe(403);
    expect((await call('PUT', `api-expenses/${e.id}`, { token: eve.token, body: { amount: 2, member_id: g.ann.memberId } })).status).toBe(403);
    expect((await call('DELETE', `api-expenses/${e.id}?member_id=${g.ann.memberId}`, { token: eve.token })).status).toBe(403);
    expect((await call('GET', `api-expenses?group_id=${NOBODY}`, { token: eve.token })).status).toBe(404);
    expect((await call('PUT', `api-expenses/${NOBODY}`, { token: g.ann.token, body: { amount: 2, member_id: g.ann.memberId } })).status).toBe(404);
    expect((await call('DELETE', `api-expenses/${NOBODY}?member_id=${g.ann.memberId}`, { token: g.ann.token })).status).toBe(404);
  });

  it('validates every field with a 400 naming it', async () => {
    const base = { group_id: g.groupId, paid_by: g.ann.memberId, amount: 10, description: 'x', split_among: [], category: 'food' };
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ...base, group_id: undefined }, /group_id is required/],
      [{ ...base, group_id: 'nope' }, /group_id/],
      [{ ...base, paid_by: undefined }, /paid_by is required/],
      [{ ...base, paid_by: NOBODY }, /paid_by is not a member/],
      [{ ...base, amount: undefined }, /amount is required/],
      [{ ...base, amount: 0 }, /amount/],
      [{ ...base, amount: -5 }, /amount/],
      [{ ...base, amount: 1.234 }, /amount/],
      [{ ...base, amount: 'ten' }, /amount/],
      [{ ...base, amount: 1e15 }, /amount/],
      [{ ...base, description: undefined }, /description is required/],
      [{ ...base, description: '' }, /description/],
      [{ ...base, split_among: 'all' }, /split_among/],
      [{ ...base, split_among: ['nope'] }, /split_among/],
      [{ ...base, split_among: [NOBODY] }, /split_among contains/],
      [{ ...base, split_among: [g.ann.memberId, g.ann.memberId] }, /more than once/],
      [{ ...base, category: 'rockets' }, /category/],
      [{ ...base, created_at: 'yesterday' }, /created_at/],
    ];
    for (const [body, message] of bad) {
      const res = await call('POST', 'api-expenses', { token: g.ann.token, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.error).toMatch(message);
    }
    const e = (await call('POST', 'api-expenses', { token: g.ann.token, body: base })).body.expense;
    expect((await call('PUT', `api-expenses/${e.id}`, { token: g.ann.token, body: { amount: 3 } })).body.error).toMatch(/member_id is required/);
    expect((await call('PUT', `api-expenses/${e.id}`, { token: g.ann.token, body: { member_id: g.ann.memberId } })).status).toBe(400);
    expect((await call('PUT', `api-expenses/${e.id}`, { token: g.ann.token, body: { amount: 3, member_id: NOBODY } })).body.error).toMatch(/member_id is not a member/);
    expect((await call('PUT', 'api-expenses/xyz', { token: g.ann.token, body: { amount: 3, member_id: g.ann.memberId } })).body.error).toMatch(/expense_id/);
    expect((await call('DELETE', `api-expenses/${e.id}`, { token: g.ann.token })).body.error).toMatch(/member_id is required/);
    expect((await call('GET', 'api-expenses', { token: g.ann.token })).body.error).toMatch(/group_id is required/);
    expect((await call('GET', 'api-expenses?group_id=1', { token: g.ann.token })).status).toBe(400);
    expect((await call('PATCH', 'api-expenses', { token: g.ann.token, body: {} })).status).toBe(405);
    expect((await call('POST', `api-expenses/${e.id}`, { token: g.ann.token, body: {} })).status).toBe(405);
    expect((await call('GET', `api-expenses?group_id=${g.groupId}`, {})).status).toBe(401);
  });
});
