// `npm run seed` end to end: idempotent, and the printed demo login works against the stack for
// both services, so a new user can try every endpoint at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resources } from '../../packages/invoicing/src/registry/registry.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoData } from '../../packages/local/src/seed.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ workers: false });
});
afterAll(() => stack?.stop());

it('seeds both services once; re-running is safe', async () => {
  const first = await seedDemoData(stack.db.sql);
  const again = await seedDemoData(stack.db.sql);
  expect(first.join('\n')).toContain(`${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  expect(first.join('\n')).toMatch(/Splitting: .* created/);
  expect(again.join('\n')).toMatch(/Splitting: .* already present/);
  expect(again.join('\n')).toMatch(/Invoicing: .* already present/);
  const [counts] = await stack.db.sql`
    select (select count(*)::int from auth.users where email = ${DEMO_EMAIL}) as users,
           (select count(*)::int from expense_groups) as groups,
           (select count(*)::int from invoicing.companies) as companies`;
  expect(counts).toEqual({ users: 1, groups: 1, companies: 1 });
  const balances = await stack.db.sql`select paid_cents - owed_cents as b from app.balance_cents((select id from expense_groups))`;
  expect(balances.reduce((sum, r) => sum + Number(r.b), 0)).toBe(0);
});

it('the demo login works for both services through the gateway', async () => {
  const client = stack.client();
  const { data, error } = await client.auth.signInWithPassword({ email: DEMO_EMAIL, password: DEMO_PASSWORD });
  expect(error).toBeNull();
  const headers = { apikey: stack.keys.anonKey, authorization: `Bearer ${data.session!.access_token}` };

  const groups = await (await fetch(`${stack.url}/functions/v1/api-groups`, { headers })).json();
  expect(groups.groups).toHaveLength(1);
  const settlements = await (await fetch(`${stack.url}/functions/v1/api-settlements?group_id=${groups.groups[0].group_id}`, { headers })).json();
  expect(settlements.balances.length).toBeGreaterThan(1);

  for (const { path: resource } of resources) {
    const res = await fetch(`${stack.url}/v1/${resource}`, { headers });
    expect(res.status).toBe(200);
    expect((await res.json()).data.length, resource).toBeGreaterThan(0);
  }
});
