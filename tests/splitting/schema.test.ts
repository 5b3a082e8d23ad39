import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createGroup, createUser, joinGroup } from './sql-helpers.ts';

let db: TestDatabase;
beforeAll(async () => { db = await createTestDatabase(); });
afterAll(async () => { await db?.drop(); });

describe('splitting schema', () => {
  it('creates a profile at sign-up from metadata, else from the e-mail', async () => {
    const a = await createUser(db.sql, { email: 'ann@example.com', displayName: 'Ann' });
    const b = await createUser(db.sql, { email: 'bob.smith@example.com' });
    const rows = await db.sql`select id, display_name from profiles where id in (${a}, ${b})`;
    const names = Object.fromEntries(rows.map((r) => [r.id, r.display_name]));
    expect(names[a]).toBe('Ann');
    expect(names[b]).toBe('bob.smith');
  });

  it('creates a group with a 4-digit code, the creator as first member, and logs it', async () => {
    const a = await createUser(db.sql, { displayName: 'Ann' });
    const g = await createGroup(db.sql, a, 'Lisbon');
    expect(g.group_code).toMatch(/^\d{4}$/);
    expect(g.member_name).toBe('Ann');
    const log = await db.sql`select action, member_id from activity_log where group_id = ${g.group_id}`;
    expect(log).toEqual([{ action: 'GROUP_CREATED', member_id: g.member_id }]);
  });

  it('joins by code once; a repeat reports already_member', async () => {
    const a = await createUser(db.sql);
    const b = await createUser(db.sql, { displayName: 'Bea' });
    const g = await createGroup(db.sql, a);
    const first = await joinGroup(db.sql, b, g.group_code);
    expect(first).toMatchObject({ status: 'ok', group_id: g.group_id, already_member: false });
    const again = await joinGroup(db.sql, b, g.group_code);
    expect(again).toMatchObject({ status: 'ok', member_id: first.member_id, already_member: true });
  });

  it('hashes share passwords with bcrypt', async () => {
    const a = await createUser(db.sql);
    const g = await createGroup(db.sql, a);
    await db.sql`update expense_groups set share_password = 'secret' where id = ${g.group_id}`;
    const [row] = await db.sql`select share_password, sharing_enabled from expense_groups where id = ${g.group_id}`;
    expect(row.share_password).toMatch(/^\$2[abxy]\$/);
    expect(row.sharing_enabled).toBe(true);
    await db.sql`update expense_groups set share_password = '' where id = ${g.group_id}`;
    const [off] = await db.sql`select share_password, sharing_enabled from expense_groups where id = ${g.group_id}`;
    expect(off).toEqual({ share_password: null, sharing_enabled: false });
  });

  it('refuses a settlement naming a member of another group, for each side', async () => {
    const a = await createUser(db.sql);
    const g = await createGroup(db.sql, a);
    const other = await createGroup(db.sql, a, 'Elsewhere');
    const [friend] = await db.sql`insert into group_members (group_id, name) values (${g.group_id}, 'Friend') returning id`;
    const settle = (over: Record<string, unknown>) =>
      db.sql`insert into settlements ${db.sql({ group_id: g.group_id, from_member_id: g.member_id, to_member_id: friend.id, amount: '5.00', settled_by: g.member_id, ...over } as Record<string, string>)}`;
    await expect(settle({ from_member_id: other.member_id })).rejects.toThrow(/from_member_id is not a member/);
    await expect(settle({ to_member_id: other.member_id })).rejects.toThrow(/to_member_id is not a member/);
    await expect(settle({ settled_by: other.member_id })).rejects.toThrow(/settled_by is not a member/);
    await expect(settle({})).resolves.toBeDefined();
  });

  it('keeps expenses consistent: members of the group, amount, category, updated_at', async () => {
    const a = await createUser(db.sql);
    const g = await createGroup(db.sql, a);
    const other = await createGroup(db.sql, a, 'Other');
    const insert = (over: Record<string, unknown>) =>
      db.sql`insert into expenses ${db.sql({ group_id: g.group_id, paid_by: g.member_id, amount: '10.00', description: 'x', ...over } as Record<string, string>)} returning *`;
    await expect(insert({ paid_by: other.member_id })).rejects.toThrow(/paid_by is not a member/);
    await expect(insert({ split_among: [other.member_id] })).rejects.toThrow(/split_among contains/);
    await expect(insert({ split_among: [g.member_id, g.member_id] })).rejects.toThrow(/more than once/);
    await expect(insert({ amount: '0' })).rejects.toThrow(/check/);
    await expect(insert({ amount: '-1' })).rejects.toThrow(/check/);
    await expect(insert({ category: 'rockets' })).rejects.toThrow(/check/);
    const [e] = await insert({ category: 'food' });
    await new Promise((r) => setTimeout(r, 5));
    const [u] = await db.sql`update expenses set description = 'y' where id = ${e.id} returning updated_at`;
    expect(u.updated_at.getTime()).toBeGreaterThan(e.updated_at.getTime());
  });

  it('refuses UPDATE and DELETE on activity_log for everyone, but deleting the group removes it', async () => {
    const a = await createUser(db.sql);
    const g = await createGroup(db.sql, a);
    await expect(db.sql`update activity_log set details = 'x' where group_id = ${g.group_id}`).rejects.toThrow(/append-only/);
    await expect(db.sql`delete from activity_log where group_id = ${g.group_id}`).rejects.toThrow(/append-only/);
    await expect(db.sql`truncate activity_log`).rejects.toThrow(/append-only/);
    await db.sql`insert into expenses (group_id, paid_by, amount, description) values (${g.group_id}, ${g.member_id}, 5, 'x')`;
    await db.sql`delete from expense_groups where id = ${g.group_id}`;
    const [{ n }] = await db.sql`select count(*)::int as n from activity_log where group_id = ${g.group_id}`;
    expect(n).toBe(0);
  });

  it('refuses removing a member who paid or shares an expense', async () => {
    const a = await createUser(db.sql);
    const g = await createGroup(db.sql, a);
    const [m] = await db.sql`insert into group_members (group_id, name) values (${g.group_id}, 'Cy') returning id`;
    await db.sql`insert into expenses (group_id, paid_by, amount, description, split_among) values (${g.group_id}, ${g.member_id}, 5, 'x', ${[m.id, g.member_id]})`;
    await expect(db.sql`delete from group_members where id = ${m.id}`).rejects.toThrow(/Cannot remove Cy/);
  });

  it('fails clearly when all 10,000 codes are taken', async () => {
    const a = await createUser(db.sql);
    await db.sql`insert into expense_groups (name, code, created_by)
      select 'g', lpad(n::text, 4, '0'), ${a} from generate_series(0, 9999) n
      on conflict (code) do nothing`;
    await expect(createGroup(db.sql, a)).rejects.toThrow(/All 10,000 group codes are in use/);
    await db.sql`delete from expense_groups where name = 'g'`;
  });

  it('publishes expenses and group_members with replica identity full', async () => {
    const rows = await db.sql`select tablename from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public' order by 1`;
    expect(rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(['expenses', 'group_members']));
    const ident = await db.sql`select relname, relreplident from pg_class where relname in ('expenses', 'group_members') and relnamespace = 'public'::regnamespace`;
    expect(ident.every((r) => r.relreplident === 'f')).toBe(true);
  });
});
