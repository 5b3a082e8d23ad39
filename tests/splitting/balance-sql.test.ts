// app.balance_cents (what the API runs) agrees to the cent with the pure TypeScript reference,
// on random groups mixing everyone-splits, subset splits and settlements.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { computeBalanceCents } from '../../packages/splitting/src/balances.ts';
import { centsToNumeric } from '../../packages/splitting/src/money.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createGroup, createUser } from './sql-helpers.ts';

let db: TestDatabase;
beforeAll(async () => { db = await createTestDatabase(); });
afterAll(async () => { await db?.drop(); });

it('SQL balances equal the TypeScript reference', async () => {
  const user = await createUser(db.sql);
  await fc.assert(fc.asyncProperty(
    fc.integer({ min: 1, max: 7 }),
    fc.array(fc.record({ payer: fc.nat(), cents: fc.integer({ min: 1, max: 100_000 }), split: fc.array(fc.nat(), { maxLength: 6 }) }), { maxLength: 15 }),
    fc.array(fc.record({ from: fc.nat(), to: fc.nat(), cents: fc.integer({ min: 1, max: 5000 }) }), { maxLength: 3 }),
    async (extra, expenses, settlements) => {
      const g = await createGroup(db.sql, user);
      const more = await db.sql`insert into group_members (group_id, name) select ${g.group_id}, 'm' || n from generate_series(1, ${extra}) n returning id, name`;
      const members = [{ id: g.member_id, name: g.member_name }, ...more.map((m) => ({ id: m.id as string, name: m.name as string }))];
      const pick = (i: number) => members[i % members.length].id;
      const exp = expenses.map((e) => ({ paidBy: pick(e.payer), cents: e.cents, splitAmong: [...new Set(e.split.map(pick))] }));
      for (const e of exp) {
        await db.sql`insert into expenses (group_id, paid_by, amount, description, split_among)
                     values (${g.group_id}, ${e.paidBy}, ${centsToNumeric(e.cents)}, 'x', ${'{' + e.splitAmong.join(',') + '}'}::uuid[])`;
      }
      const set = settlements.map((s) => ({ from: pick(s.from), to: pick(s.to + 1 + s.from), cents: s.cents })).filter((s) => s.from !== s.to);
      for (const s of set) {
        await db.sql`insert into settlements (group_id, from_member_id, to_member_id, amount) values (${g.group_id}, ${s.from}, ${s.to}, ${centsToNumeric(s.cents)})`;
      }
      const rows = await db.sql`select member_id, paid_cents, owed_cents from app.balance_cents(${g.group_id})`;
      const sql = new Map(rows.map((r) => [r.member_id, [Number(r.paid_cents), Number(r.owed_cents)]]));
      for (const r of computeBalanceCents(members, exp, set)) {
        expect(sql.get(r.memberId)).toEqual([r.paidCents, r.owedCents]);
      }
    },
  ), { numRuns: 40 });
});
