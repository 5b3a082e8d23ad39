// End to end with the real supabase-js client: sign-up with display_name, functions.invoke,
// the shared view with only the publishable key, and a realtime subscription on expenses.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => { stack = await startTestStack(); });
afterAll(async () => { await stack?.stop(); });

it('runs a whole trip through supabase-js', async () => {
  const ann = stack.client();
  const bob = stack.client();
  const signUp = async (client: ReturnType<TestStack['client']>, name: string) => {
    const { data, error } = await client.auth.signUp({ email: `${name.toLowerCase()}${Date.now()}@example.com`, password: 'a-long-password', options: { data: { display_name: name } } });
    expect(error).toBeNull();
    return data.session!.access_token;
  };
  const annToken = await signUp(ann, 'Ann');
  const bobToken = await signUp(bob, 'Bob');
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  const created = await ann.functions.invoke('api-groups', { body: { name: 'Porto' }, headers: auth(annToken) });
  expect(created.error).toBeNull();
  expect(created.data.member_name).toBe('Ann');
  const joined = await bob.functions.invoke('api-groups/join', { body: { code: created.data.group_code }, headers: auth(bobToken) });
  expect(joined.error).toBeNull();
  expect(joined.data).toMatchObject({ member_name: 'Bob', already_member: false });

  // realtime: Bob hears Ann's expense (the server replies SUBSCRIBED only once no later commit can be missed)
  let subscribed!: () => void;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  const heard = new Promise<Record<string, unknown>>((resolve) => {
    bob.realtime.setAuth(bobToken);
    bob.channel('expenses')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'expenses', filter: `group_id=eq.${created.data.group_id}` },
        (payload) => resolve(payload.new as Record<string, unknown>))
      .subscribe((status) => {
        if (status === 'SUBSCRIBED') subscribed();
      });
  });
  await ready;

  const expense = await ann.functions.invoke('api-expenses', { body: {
    group_id: created.data.group_id, paid_by: created.data.member_id, amount: 60, description: 'Port tasting', split_among: [], category: 'food',
  }, headers: auth(annToken) });
  expect(expense.error).toBeNull();
  const event = await Promise.race([heard, new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
  expect(event).toMatchObject({ id: expense.data.expense.id, description: 'Port tasting' });

  const balances = await bob.functions.invoke(`api-settlements?group_id=${created.data.group_id}`, { method: 'GET', headers: auth(bobToken) });
  expect(balances.data.settlements).toEqual([{ from: joined.data.member_id, from_name: 'Bob', to: created.data.member_id, to_name: 'Ann', amount: 30 }]);

  const share = await ann.functions.invoke(`api-share-settings?group_id=${created.data.group_id}`, { method: 'PUT', body: { share_password: 'vinho' }, headers: auth(annToken) });
  expect(share.data.sharing_enabled).toBe(true);

  const visitor = stack.client(stack.keys.publishableKey);
  const view = await visitor.functions.invoke('api-shared-view', { body: { code: created.data.group_code, password: 'vinho' } });
  expect(view.error).toBeNull();
  expect(view.data).toMatchObject({ group_name: 'Porto', total_expenses: 60 });
  const wrong = await visitor.functions.invoke('api-shared-view', { body: { code: created.data.group_code, password: 'agua' } });
  expect((wrong.error as { context: Response }).context.status).toBe(401);
  await bob.removeAllChannels();
});
