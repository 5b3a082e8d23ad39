// Row-level security of every invoicing resource, per persona: the owner of company A against
// company B's rows (cross-tenant), a viewer, a staff member with per-resource overrides, a user
// with no company, and the anonymous role. Both companies hold the demo data, which has at least
// one row in every resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../packages/invoicing/src/registry/registry.ts';
import { seedInvoicing } from '../../packages/invoicing/src/seed.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addMember, as, makeUser, sqlState } from './personas.ts';

let db: TestDatabase;
let ownerA: string, ownerB: string, viewerB: string, staffB: string, loner: string;
let companyA: string, companyB: string;

const writable = resources.filter((r) => !r.readOnly);
const readOnly = resources.filter((r) => r.readOnly);
const table = (r: { table: string }) => `invoicing.${r.table}`;

beforeAll(async () => {
  db = await createTestDatabase();
  const { sql } = db;
  [ownerA, ownerB, viewerB, staffB, loner] = await Promise.all(
    ['Owner A', 'Owner B', 'Viewer B', 'Staff B', 'Loner'].map((name) => makeUser(sql, name)),
  );
  companyA = (await seedInvoicing(sql, { userId: ownerA })).companyId;
  companyB = (await seedInvoicing(sql, { userId: ownerB })).companyId;
  await addMember(sql, companyB, viewerB, 'viewer');
  await addMember(sql, companyB, staffB, 'staff', {
    invoices: { write: false },
    parties: { read: false },
  });
});

afterAll(async () => {
  await db?.drop();
});

async function countAs(caller: Parameters<typeof as>[1], tbl: string, where = 'true'): Promise<number> {
  return as(db.sql, caller, async (tx) => {
    const [r] = await tx.unsafe(`select count(*)::int as n from ${tbl} where ${where}`);
    return r.n;
  });
}

describe('the demo data covers every resource', () => {
  it.each(resources.map((r) => [r.path, r]))('%s: company B owner sees only B rows', async (_p, r) => {
    const rows = await as(db.sql, { userId: ownerB }, (tx) => tx.unsafe(`select company_id from ${table(r)}`));
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((x) => x.company_id))).toEqual(new Set([companyB]));
  });
});

describe('cross-tenant: the owner of A never touches B', () => {
  it.each(resources.map((r) => [r.path, r]))('%s: no B row is visible, by filter or by X-Company-Id', async (_p, r) => {
    expect(await countAs({ userId: ownerA }, table(r), `company_id = '${companyB}'`)).toBe(0);
    // naming company B as the active company gives no company at all, not B's rows
    expect(await countAs({ userId: ownerA, companyId: companyB }, table(r))).toBe(0);
    // by id: every id of B is invisible
    const bIds = (await db.sql.unsafe(`select id from ${table(r)} where company_id = $1`, [companyB])).map((x) => x.id);
    expect(await countAs({ userId: ownerA }, table(r), `id = any('{${bIds.join(',')}}'::uuid[])`)).toBe(0);
  });

  it.each(writable.map((r) => [r.path, r]))('%s: update and delete of B rows match nothing; B is intact', async (_p, r) => {
    const before = await db.sql.unsafe(`select count(*)::int as n, max(updated_at) as u from ${table(r)} where company_id = $1`, [companyB]);
    const touched = await as(db.sql, { userId: ownerA }, async (tx) => {
      const u = await tx.unsafe(`update ${table(r)} set updated_at = now() where company_id = $1 returning id`, [companyB]);
      const d = await tx.unsafe(`delete from ${table(r)} where company_id = $1 returning id`, [companyB]);
      return u.length + d.length;
    });
    expect(touched).toBe(0);
    const after = await db.sql.unsafe(`select count(*)::int as n, max(updated_at) as u from ${table(r)} where company_id = $1`, [companyB]);
    expect(after).toEqual(before);
  });

  it.each(writable.map((r) => [r.path, r]))('%s: inserting a row into B is refused (42501)', async (_p, r) => {
    const state = await sqlState(as(db.sql, { userId: ownerA }, (tx) =>
      tx.unsafe(`insert into ${table(r)} (company_id) values ($1)`, [companyB])));
    expect(state).toBe('42501');
  });

  it('a row of A cannot reference a party or item of B (composite foreign key names the field)', async () => {
    const [partyB] = await db.sql`select id from invoicing.parties where company_id = ${companyB} limit 1`;
    const [itemB] = await db.sql`select id from invoicing.items where company_id = ${companyB} limit 1`;
    const err = await as(db.sql, { userId: ownerA }, (tx) =>
      tx`insert into invoicing.invoices (party_id, party_name) values (${partyB.id}, 'x')`).catch((e) => e);
    expect(err.code).toBe('23503');
    expect(err.constraint_name).toBe('invoices_party_id_fkey');
    const [invoiceA] = await db.sql`select id from invoicing.invoices where company_id = ${companyA} limit 1`;
    const err2 = await as(db.sql, { userId: ownerA }, (tx) =>
      tx`insert into invoicing.invoice_items (invoice_id, item_id, item_name) values (${invoiceA.id}, ${itemB.id}, 'x')`).catch((e) => e);
    expect(err2.code).toBe('23503');
    expect(err2.constraint_name).toBe('invoice_items_item_id_fkey');
  });

  it('moving an own row to company B is refused', async () => {
    const state = await sqlState(as(db.sql, { userId: ownerA }, (tx) =>
      tx`update invoicing.parties set company_id = ${companyB} where company_id = ${companyA}`));
    expect(state).toBe('42501');
  });
});

describe('viewer', () => {
  it.each(writable.map((r) => [r.path, r]))('%s: reads, but every write is refused', async (_p, r) => {
    expect(await countAs({ userId: viewerB }, table(r))).toBeGreaterThan(0);
    expect(await sqlState(as(db.sql, { userId: viewerB }, (tx) => tx.unsafe(`insert into ${table(r)} default values`)))).toBe('42501');
    // a visible row: the update fails WITH CHECK (an error, so the API can answer 403)
    expect(await sqlState(as(db.sql, { userId: viewerB }, (tx) => tx.unsafe(`update ${table(r)} set updated_at = now()`)))).toBe('42501');
    const deleted = await as(db.sql, { userId: viewerB }, (tx) => tx.unsafe(`delete from ${table(r)} returning id`));
    expect(deleted.length).toBe(0);
  });

  it('app.can_write says no, for any resource', async () => {
    const [r] = await as(db.sql, { userId: viewerB }, (tx) =>
      tx`select app.can_write(app.active_company_id(), 'parties') as w, app.can_read(app.active_company_id(), 'parties') as r`);
    expect(r).toEqual({ w: false, r: true });
  });
});

describe('per-resource permission overrides (staff)', () => {
  it('write:false on invoices refuses invoice writes but not party writes', async () => {
    expect(await sqlState(as(db.sql, { userId: staffB }, (tx) =>
      tx`insert into invoicing.invoices (party_name) values ('Cash')`))).toBe('42501');
    expect(await sqlState(as(db.sql, { userId: staffB }, (tx) =>
      tx`insert into invoicing.items (name) values ('Staff item')`))).toBe('ok');
  });

  it('read:false on parties hides them', async () => {
    expect(await countAs({ userId: staffB }, 'invoicing.parties')).toBe(0);
    expect(await countAs({ userId: staffB }, 'invoicing.invoices')).toBeGreaterThan(0);
  });
});

describe('read-only resources', () => {
  it.each(readOnly.map((r) => [r.path, r]))('%s: no insert, update or delete, even for the owner', async (_p, r) => {
    const owner = { userId: ownerB };
    expect(await sqlState(as(db.sql, owner, (tx) => tx.unsafe(`insert into ${table(r)} default values`)))).not.toBe('ok');
    expect(await sqlState(as(db.sql, owner, (tx) => tx.unsafe(`update ${table(r)} set updated_at = now()`)))).not.toBe('ok');
    expect(await sqlState(as(db.sql, owner, (tx) => tx.unsafe(`delete from ${table(r)}`)))).not.toBe('ok');
    expect(await countAs(owner, table(r))).toBeGreaterThan(0);
  });
});

describe('no company, no token', () => {
  it.each(resources.map((r) => [r.path, r]))('%s: a user without membership sees nothing and cannot insert', async (_p, r) => {
    expect(await countAs({ userId: loner }, table(r))).toBe(0);
    if (!r.readOnly) {
      const err = await as(db.sql, { userId: loner }, (tx) => tx.unsafe(`insert into ${table(r)} default values`)).catch((e) => e);
      expect(err.code).toBe('42501');
    }
  });

  it.each(resources.map((r) => [r.path, r]))('%s: the anon role has no privilege at all', async (_p, r) => {
    expect(await sqlState(as(db.sql, { userId: null, role: 'anon' }, (tx) => tx.unsafe(`select 1 from ${table(r)}`)))).toBe('42501');
  });

  it('authenticated without a subject sees nothing', async () => {
    expect(await countAs({ userId: null }, 'invoicing.invoices')).toBe(0);
  });
});
