// Row level security per persona — creator, member, non-member, anonymous — for every table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { as, createGroup, createUser, joinGroup } from './sql-helpers.ts';

let db: TestDatabase;
let creator: string, member: string, stranger: string;
let g: Awaited<ReturnType<typeof createGroup>>;
let memberId: string, expenseId: string, budgetId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  creator = await createUser(db.sql, { displayName: 'Cat' });
  member = await createUser(db.sql, { displayName: 'Max' });
  stranger = await createUser(db.sql, { displayName: 'Sam' });
  g = await createGroup(db.sql, creator);
  memberId = (await joinGroup(db.sql, member, g.group_code)).member_id;
  await createGroup(db.sql, stranger, 'Elsewhere');
  [{ id: expenseId }] = await db.sql`insert into expenses (group_id, paid_by, amount, description) values (${g.group_id}, ${g.member_id}, 10, 'x') returning id`;
  await db.sql`insert into settlements (group_id, from_member_id, to_member_id, amount, settled_by) values (${g.group_id}, ${memberId}, ${g.member_id}, 5, ${memberId})`;
  [{ id: budgetId }] = await db.sql`insert into budgets (group_id, created_by, name, type) values (${g.group_id}, ${g.member_id}, 'Food', 'group') returning id`;
  await db.sql`insert into income_entries (budget_id, added_by, description, amount) values (${budgetId}, ${g.member_id}, 'pay', 100)`;
});
afterAll(async () => { await db?.drop(); });

const TABLES = ['expense_groups', 'group_members', 'expenses', 'activity_log', 'settlements', 'budgets', 'income_entries'];

async function visible(who: string, table: string): Promise<number> {
  const column = table === 'expense_groups' ? 'id' : table === 'income_entries' ? 'budget_id' : 'group_id';
  const target = table === 'income_entries' ? budgetId : g.group_id;
  return as(db.sql, who, async (tx) => (await tx.unsafe(`select count(*)::int as n from ${table} where ${column} = $1`, [target]))[0].n);
}

describe('RLS', () => {
  it('members and the creator see every table of their group; a non-member sees none of it', async () => {
    for (const table of TABLES) {
      expect({ table, n: await visible(creator, table) }).toEqual({ table, n: expect.any(Number) });
      expect(await visible(creator, table)).toBeGreaterThan(0);
      expect(await visible(member, table)).toBe(await visible(creator, table));
      expect({ table, n: await visible(stranger, table) }).toEqual({ table, n: 0 });
    }
  });

  it('anonymous callers have no access to any table', async () => {
    for (const table of [...TABLES, 'profiles']) {
      await expect(as(db.sql, 'anon', (tx) => tx.unsafe(`select 1 from ${table} limit 1`))).rejects.toThrow(/permission denied/);
    }
  });

  it('profiles are visible and writable only by their owner', async () => {
    const own = await as(db.sql, member, (tx) => tx`select id from profiles`);
    expect(own.map((r) => r.id)).toEqual([member]);
    const updated = await as(db.sql, member, (tx) => tx`update profiles set display_name = 'x' where id = ${creator} returning id`);
    expect(updated).toHaveLength(0);
  });

  it('share_password cannot be read by API roles', async () => {
    await expect(as(db.sql, creator, (tx) => tx`select share_password from expense_groups`)).rejects.toThrow(/permission denied/);
  });

  it('members write expenses, budgets, income, settlements and log entries; non-members cannot', async () => {
    const insertExpense = (who: string) => as(db.sql, who, (tx) =>
      tx`insert into expenses (group_id, paid_by, amount, description) values (${g.group_id}, ${memberId}, 3, 'y') returning id`);
    expect(await insertExpense(member)).toHaveLength(1);
    await expect(insertExpense(stranger)).rejects.toThrow(/row-level security/);
    const updateExpense = (who: string) => as(db.sql, who, (tx) => tx`update expenses set amount = 1 where id = ${expenseId} returning id`);
    expect(await updateExpense(member)).toHaveLength(1);
    expect(await updateExpense(stranger)).toHaveLength(0);
    const deleteExpense = (who: string) => as(db.sql, who, (tx) => tx`delete from expenses where id = ${expenseId} returning id`);
    expect(await deleteExpense(stranger)).toHaveLength(0);
    expect(await deleteExpense(member)).toHaveLength(1);

    const log = (who: string) => as(db.sql, who, (tx) =>
      tx`insert into activity_log (group_id, member_id, action) values (${g.group_id}, ${memberId}, 'EXPENSE_ADDED') returning id`);
    expect(await log(member)).toHaveLength(1);
    await expect(log(stranger)).rejects.toThrow(/row-level security/);
    const settle = (who: string) => as(db.sql, who, (tx) =>
      tx`insert into settlements (group_id, from_member_id, to_member_id, amount) values (${g.group_id}, ${memberId}, ${g.member_id}, 1) returning id`);
    expect(await settle(member)).toHaveLength(1);
    await expect(settle(stranger)).rejects.toThrow(/row-level security/);
    const budget = (who: string) => as(db.sql, who, (tx) =>
      tx`insert into budgets (group_id, name, type) values (${g.group_id}, 'b', 'personal') returning id`);
    expect(await budget(member)).toHaveLength(1);
    await expect(budget(stranger)).rejects.toThrow(/row-level security/);
    const income = (who: string) => as(db.sql, who, (tx) =>
      tx`insert into income_entries (budget_id, description, amount) values (${budgetId}, 'i', 1) returning id`);
    expect(await income(member)).toHaveLength(1);
    await expect(income(stranger)).rejects.toThrow(/row-level security/);
  });

  it('settlements and the activity log cannot be changed by API roles', async () => {
    await expect(as(db.sql, creator, (tx) => tx`update settlements set amount = 1`)).rejects.toThrow(/permission denied/);
    await expect(as(db.sql, creator, (tx) => tx`delete from activity_log`)).rejects.toThrow(/permission denied/);
  });

  it('only the creator renames or removes members, deletes the group and changes share settings', async () => {
    const rename = (who: string) => as(db.sql, who, (tx) => tx`update group_members set name = 'z' where id = ${memberId} returning id`);
    expect(await rename(member)).toHaveLength(0);
    expect(await rename(stranger)).toHaveLength(0);
    expect(await rename(creator)).toHaveLength(1);
    const addMember = (who: string) => as(db.sql, who, (tx) => tx`insert into group_members (group_id, name) values (${g.group_id}, 'n') returning id`);
    await expect(addMember(member)).rejects.toThrow(/row-level security/);
    expect(await addMember(creator)).toHaveLength(1);
    const remove = (who: string) => as(db.sql, who, async (tx) => {
      const [m] = await tx`insert into group_members (group_id, name) values (${g.group_id}, 'tmp') returning id`;
      await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: who, role: 'authenticated' })}, true)`;
      return tx`delete from group_members where id = ${m.id} returning id`;
    });
    expect(await remove(creator)).toHaveLength(1);
    const share = (who: string) => as(db.sql, who, (tx) => tx`update expense_groups set share_password = 'p' where id = ${g.group_id} returning id`);
    expect(await share(member)).toHaveLength(0);
    expect(await share(creator)).toHaveLength(1);
    const drop = (who: string) => as(db.sql, who, (tx) => tx`delete from expense_groups where id = ${g.group_id} returning id`);
    expect(await drop(member)).toHaveLength(0);
    expect(await drop(stranger)).toHaveLength(0);
    expect(await drop(creator)).toHaveLength(1);
  });

  it('balances and access checks answer members only', async () => {
    await expect(as(db.sql, stranger, (tx) => tx`select * from app.group_balances(${g.group_id})`)).rejects.toThrow(/not a member/);
    expect(await as(db.sql, member, (tx) => tx`select * from app.group_balances(${g.group_id})`)).toHaveLength(2);
    await expect(as(db.sql, member, (tx) => tx`select * from app.balance_cents(${g.group_id})`)).rejects.toThrow(/permission denied/);
    await expect(as(db.sql, 'anon', (tx) => tx`select * from app.create_group('x')`)).rejects.toThrow(/permission denied/);
  });
});
