// A group with three signed-up members, made through the API.
import type { TestStack } from '../support/stack.ts';
import { caller } from './http-helpers.ts';

export async function threeMemberGroup(stack: TestStack, name = 'Trip') {
  const call = caller(stack);
  const ann = await stack.signUp({ displayName: 'Ann' });
  const bob = await stack.signUp({ displayName: 'Bob' });
  const cy = await stack.signUp({ displayName: 'Cy' });
  const g = (await call('POST', 'api-groups', { token: ann.token, body: { name } })).body;
  const b = (await call('POST', 'api-groups/join', { token: bob.token, body: { code: g.group_code } })).body;
  const c = (await call('POST', 'api-groups/join', { token: cy.token, body: { code: g.group_code } })).body;
  return {
    groupId: g.group_id as string,
    code: g.group_code as string,
    ann: { ...ann, memberId: g.member_id as string },
    bob: { ...bob, memberId: b.member_id as string },
    cy: { ...cy, memberId: c.member_id as string },
  };
}
