// The active company, company creation and membership management, and company_id being set by
// the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addMember, as, makeCompany, makeUser, sqlState } from './personas.ts';

let db: TestDatabase;
let alice: string, bob: string, carol: string;
let first: string, second: string, bobs: string;

beforeAll(async () => {
  db = await createTestDatabase();
  [alice, bob, carol] = await Promise.all(['Alice', 'Bob', 'Carol'].map((n) => makeUser(db.sql, n)));
  first = await makeCompany(db.sql, alice, 'First Co');
  second = await makeCompany(db.sql, alice, 'Second Co');
  bobs = await makeCompany(db.sql, bob, 'Bob Co');
});
afterAll(async () => {
  await db?.drop();
});

const active = (userId: string, companyId?: string) =>
  as(db.sql, { userId, companyId }, async (tx) => (await tx`select app.active_company_id() as id`)[0].id);

describe('app.active_company_id()', () => {
  it('defaults to the first membership', async () => {
    expect(await active(alice)).toBe(first);
  });
  it('follows X-Company-Id when the caller is a member', async () => {
    expect(await active(alice, second)).toBe(second);
  });
  it('is null for a company the caller is not in, a malformed id, or no user', async () => {
    expect(await active(alice, bobs)).toBeNull();
    expect(await active(alice, 'not-a-uuid')).toBeNull();
    expect(await active(carol)).toBeNull();
  });
  it('ignores disabled memberships', async () => {
    await addMember(db.sql, bobs, carol, 'staff');
    expect(await active(carol)).toBe(bobs);
    await db.sql`update invoicing.memberships set status = 'disabled' where user_id = ${carol}`;
    expect(await active(carol)).toBeNull();
    await db.sql`delete from invoicing.memberships where user_id = ${carol}`;
  });
});

describe('companies', () => {
  it('a new company has its owner, business profile and trial licence', async () => {
    const rows = await as(db.sql, { userId: alice, companyId: second }, async (tx) => ({
      companies: await tx`select name from invoicing.companies order by name`,
      me: await tx`select role from invoicing.memberships where company_id = ${second}`,
      profile: await tx`select business_name from invoicing.business_profile`,
      licences: await tx`select status from invoicing.licenses`,
      members: await tx`select name, role from invoicing.members`,
    }));
    expect(rows.companies.map((c) => c.name)).toEqual(['First Co', 'Second Co']);
    expect(rows.me.map((m) => m.role)).toEqual(['owner']);
    expect(rows.profile.map((p) => p.business_name)).toEqual(['Second Co']);
    expect(rows.licences.map((l) => l.status)).toEqual(['trial']);
    expect(rows.members).toEqual([{ name: 'Alice', role: 'owner' }]);
  });

  it('companies and memberships cannot be written directly', async () => {
    expect(await sqlState(as(db.sql, { userId: alice }, (tx) => tx`insert into invoicing.companies (name) values ('x')`))).toBe('42501');
    expect(await sqlState(as(db.sql, { userId: alice }, (tx) => tx`update invoicing.memberships set role = 'viewer'`))).toBe('42501');
  });

  it('an owner adds a member by email; a non-admin cannot', async () => {
    const [{ email }] = await db.sql`select email from auth.users where id = ${carol}`;
    expect(await sqlState(as(db.sql, { userId: bob }, (tx) => tx`select app.invoicing_add_member(${first}, ${email}, 'staff')`))).toBe('42501');
    await as(db.sql, { userId: alice }, (tx) => tx`select app.invoicing_add_member(${first}, ${email.toUpperCase()}, 'viewer')`);
    expect(await active(carol)).toBe(first);
    expect(await sqlState(as(db.sql, { userId: alice }, (tx) => tx`select app.invoicing_add_member(${first}, ${email}, 'staff')`))).toBe('23505');
    expect(await sqlState(as(db.sql, { userId: alice }, (tx) => tx`select app.invoicing_add_member(${first}, 'nobody@test.local', 'staff')`))).toBe('P0002');
    expect(await sqlState(as(db.sql, { userId: carol }, (tx) => tx`select app.invoicing_add_member(${first}, ${email}, 'owner')`))).toBe('42501');
  });
});

describe('company_id is set by the database', () => {
  it('from the active company', async () => {
    const [row] = await as(db.sql, { userId: alice, companyId: second }, (tx) =>
      tx`insert into invoicing.parties (name) values ('Auto') returning company_id`);
    expect(row.company_id).toBe(second);
  });
  it('a caller with no active company gets a clear error', async () => {
    const err = await as(db.sql, { userId: alice, companyId: bobs }, (tx) =>
      tx`insert into invoicing.parties (name) values ('Nope')`).catch((e) => e);
    expect(err.code).toBe('42501');
    expect(err.message).toMatch(/no active company/);
  });
  it('created_at cannot be rewritten; updated_at moves', async () => {
    const [row] = await as(db.sql, { userId: alice }, (tx) =>
      tx`insert into invoicing.units (name, short_name) values ('Dozen', 'DOZ') returning id, created_at, updated_at`);
    const [after] = await as(db.sql, { userId: alice }, (tx) =>
      tx`update invoicing.units set created_at = '2000-01-01', name = 'Dozens' where id = ${row.id} returning created_at, updated_at`);
    expect(after.created_at).toEqual(row.created_at);
  });
});

describe('deleting a company', () => {
  it('cascades through every table, the activity log included', async () => {
    const doomed = await makeCompany(db.sql, bob, 'Doomed Co');
    await as(db.sql, { userId: bob, companyId: doomed }, async (tx) => {
      const [p] = await tx`insert into invoicing.parties (name) values ('P') returning id`;
      await tx`insert into invoicing.invoices (party_id, party_name) values (${p.id}, 'P')`;
    });
    await db.sql`delete from invoicing.companies where id = ${doomed}`;
    const [left] = await db.sql`select count(*)::int as n from invoicing.activity_log where company_id = ${doomed}`;
    expect(left.n).toBe(0);
  });
});
