import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { caller } from './http-helpers.ts';

let stack: TestStack;
let call: ReturnType<typeof caller>;
beforeAll(async () => { stack = await startTestStack(); call = caller(stack); });
afterAll(async () => { await stack?.stop(); });

describe('api-groups', () => {
  it('creates, lists, joins and deletes groups', async () => {
    const ann = await stack.signUp({ displayName: 'Ann' });
    const bob = await stack.signUp({ displayName: 'Bob' });
    const created = await call('POST', 'api-groups', { token: ann.token, body: { name: 'Lisbon trip' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      group_id: expect.any(String), member_id: expect.any(String), group_name: 'Lisbon trip',
      group_code: expect.stringMatching(/^\d{4}$/), member_name: 'Ann',
    });
    const joined = await call('POST', 'api-groups/join', { token: bob.token, body: { code: created.body.group_code } });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ group_id: created.body.group_id, member_name: 'Bob', already_member: false });
    const again = await call('POST', 'api-groups/join', { token: bob.token, body: { code: created.body.group_code } });
    expect(again.body).toMatchObject({ member_id: joined.body.member_id, already_member: true });

    const list = await call('GET', 'api-groups', { token: bob.token });
    expect(list.status).toBe(200);
    expect(list.body.groups).toEqual([{
      group_id: created.body.group_id, member_id: joined.body.member_id, group_name: 'Lisbon trip',
      group_code: created.body.group_code, is_creator: false, member_count: 2, created_at: expect.any(String),
    }]);
    const annList = await call('GET', 'api-groups', { token: ann.token });
    expect(annList.body.groups[0].is_creator).toBe(true);

    expect((await call('DELETE', `api-groups/${created.body.group_id}`, { token: bob.token })).status).toBe(403);
    const del = await call('DELETE', `api-groups/${created.body.group_id}`, { token: ann.token });
    expect(del).toEqual({ status: 200, body: { message: expect.stringContaining('Lisbon trip') } });
    expect((await call('GET', 'api-groups', { token: bob.token })).body.groups).toEqual([]);
    expect((await call('DELETE', `api-groups/${created.body.group_id}`, { token: ann.token })).status).toBe(404);
  });

  it('rejects bad input with 400/401/404/405 in the {error} envelope', async () => {
    const u = await stack.signUp();
    const cases: [string, string, Parameters<typeof call>[2], number, RegExp?][] = [
      ['GET', 'api-groups', {}, 401],
      ['GET', 'api-groups', { token: 'not-a-jwt' }, 401],
      ['POST', 'api-groups', { token: u.token, body: {} }, 400, /name is required/],
      ['POST', 'api-groups', { token: u.token, body: { name: '   ' } }, 400, /name/],
      ['POST', 'api-groups', { token: u.token, body: { name: 42 } }, 400, /name/],
      ['POST', 'api-groups', { token: u.token, rawBody: '{"name":' }, 400, /Malformed JSON/],
      ['POST', 'api-groups', { token: u.token, rawBody: '[1]' }, 400, /JSON object/],
      ['POST', 'api-groups/join', { token: u.token, body: { code: '12a4' } }, 400, /code/],
      ['POST', 'api-groups/join', { token: u.token, body: {} }, 400, /code is required/],
      ['DELETE', 'api-groups/not-a-uuid', { token: u.token }, 400, /group_id/],
      ['DELETE', 'api-groups/00000000-0000-4000-8000-000000000000', { token: u.token }, 404, /Group not found/],
      ['PUT', 'api-groups', { token: u.token, body: {} }, 405],
      ['GET', 'api-groups/join', { token: u.token }, 405],
      ['GET', 'api-groups/a/b', { token: u.token }, 404],
    ];
    for (const [method, path, opts, status, message] of cases) {
      const res = await call(method, path, opts);
      expect({ method, path, status: res.status }).toEqual({ method, path, status });
      if (status !== 401 || res.body.error) expect(typeof res.body.error).toBe('string');
      if (message) expect(res.body.error).toMatch(message);
    }
  });

  it('answers 404 for an unknown join code and counts the failures', async () => {
    const u = await stack.signUp();
    await stack.db.sql`delete from expense_groups where code = '0000'`;
    const res = await call('POST', 'api-groups/join', { token: u.token, body: { code: '0000' } });
    expect(res).toEqual({ status: 404, body: { error: 'Group not found' } });
    const [{ n }] = await stack.db.sql`select count(*)::int as n from app.join_failures where user_id = ${u.userId}`;
    expect(n).toBe(1);
  });
});
