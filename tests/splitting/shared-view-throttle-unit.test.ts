// The throttle is keyed on group and client IP: called in-process (no gateway), x-real-ip is
// what the app sees, so two addresses are counted apart.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { createSharedViewApp } from '../../packages/splitting/src/apps/shared-view.ts';
import { threeMemberGroup } from './fixtures.ts';
import { caller } from './http-helpers.ts';

let stack: TestStack;
beforeAll(async () => { stack = await startTestStack(); });
afterAll(async () => { await stack?.stop(); });

it('counts failures per client IP', async () => {
  const g = await threeMemberGroup(stack);
  await caller(stack)('PUT', `api-share-settings?group_id=${g.groupId}`, { token: g.ann.token, body: { share_password: 'pw' } });
  const app = createSharedViewApp(stack.edge);
  const view = (password: string, ip: string) => app.fetch(new Request('http://x/api-shared-view', {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-real-ip': ip }, body: JSON.stringify({ code: g.code, password }),
  }));
  for (let i = 0; i < 10; i++) expect((await view('bad', '10.0.0.1')).status).toBe(401);
  expect((await view('pw', '10.0.0.1')).status).toBe(429);
  expect((await view('pw', '10.0.0.2')).status).toBe(200);
});
