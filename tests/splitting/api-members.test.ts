import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { threeMemberGroup } from './fixtures.ts';
import { caller } from './http-helpers.ts';

let stack: TestStack;
let call: ReturnType<typeof caller>;
let g: Awaited<ReturnType<typeof threeMemberGroup>>;
beforeAll(async () => { stack = await startTestStack(); call = caller(stack); g = await threeMemberGroup(stack); });
afterAll(async () => { await stack?.stop(); });

describe('api-members', () => {
  it('lists members in joining order', async () => {
    const res = await call('GET', `api-members?group_id=${g.groupId}`, { token: g.cy.token });
    expect(res.status).toBe(200);
    expect(res.body.members).toEqual([
      { id: g.ann.memberId, name: 'Ann', user_id: g.ann.userId, created_at: expect.any(String) },
      { id: g.bob.memberId, name: 'Bob', user_id: g.bob.userId, created_at: expect.any(String) },
      { id: g.cy.memberId, name: 'Cy', user_id: g.cy.userId, created_at: expect.any(String) },
    ]);
  });

  it('lets only the creator add, rename and remove members', async () => {
    const added = await call('POST', 'api-members', { token: g.ann.token, body: { group_id: g.groupId, name: 'Dee' } });
    expect(added.status).toBe(201);
    expect(added.body.member).toMatchObject({ name: 'Dee', user_id: null });
    const dee = added.body.member.id;
    expect((await call('POST', 'api-members', { token: g.bob.token, body: { group_id: g.groupId, name: 'X' } })).status).toBe(403);
    expect((await call('PUT', `api-members/${dee}`, { token: g.bob.token, body: { name: 'Z' } })).status).toBe(403);
    const renamed = await call('PUT', `api-members/${dee}`, { token: g.ann.token, body: { name: 'Deedee' } });
    expect(renamed).toMatchObject({ status: 200, body: { member: { id: dee, name: 'Deedee' } } });
    expect((await call('DELETE', `api-members/${dee}`, { token: g.cy.token })).status).toBe(403);
    const removed = await call('DELETE', `api-members/${dee}`, { token: g.ann.token });
    expect(removed).toEqual({ status: 200, body: { message: expect.stringContaining('Deedee') } });
    expect((await call('DELETE', `api-members/${dee}`, { token: g.ann.token })).status).toBe(404);
  });

  it('refuses removing a member with expenses, and the creator', async () => {
    await call('POST', 'api-expenses', { token: g.ann.token, body: {
      group_id: g.groupId, paid_by: g.ann.memberId, amount: 9, description: 'x', split_among: [g.bob.memberId] } });
    const res = await call('DELETE', `api-members/${g.bob.memberId}`, { token: g.ann.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Cannot remove Bob: they paid or share/);
    expect((await call('DELETE', `api-members/${g.ann.memberId}`, { token: g.ann.token })).status).toBe(400);
  });

  it('validates input and refuses non-members', async () => {
    const eve = await stack.signUp();
    expect((await call('GET', `api-members?group_id=${g.groupId}`, { token: eve.token })).status).toBe(403);
    expect((await call('PUT', `api-members/${g.bob.memberId}`, { token: eve.token, body: { name: 'x' } })).status).toBe(403);
    expect((await call('PUT', `api-members/${g.bob.memberId}`, { token: g.ann.token, body: {} })).body.error).toMatch(/name is required/);
    expect((await call('PUT', 'api-members/1', { token: g.ann.token, body: { name: 'x' } })).status).toBe(400);
    expect((await call('PUT', 'api-members/00000000-0000-4000-8000-000000000000', { token: g.ann.token, body: { name: 'x' } })).status).toBe(404);
    expect((await call('POST', 'api-members', { token: g.ann.token, body: { name: 'x' } })).body.error).toMatch(/group_id is required/);
    expect((await call('PATCH', `api-members/${g.bob.memberId}`, { token: g.ann.token, body: {} })).status).toBe(405);
    expect((await call('GET', `api-members?group_id=${g.groupId}`, {})).status).toBe(401);
  });
});
