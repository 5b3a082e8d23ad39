// The audit trail: written by triggers in the same transaction as the change, never editable.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { as, makeCompany, makeUser, sqlState } from './personas.ts';

let db: TestDatabase;
let owner: string, company: string;

beforeAll(async () => {
  db = await createTestDatabase();
  owner = await makeUser(db.sql, 'Priya Shah');
  company = await makeCompany(db.sql, owner, 'Audit Co');
});
afterAll(async () => {
  await db?.drop();
});

const log = (entityId: string) =>
  db.sql`select user_id, user_name, action, entity_type, summary, changes
         from invoicing.activity_log where entity_id = ${entityId} order by created_at, action`;

it('records create, update (changed fields old → new) and delete, with who did it', async () => {
  const me = { userId: owner };
  const [party] = await as(db.sql, me, (tx) => tx`insert into invoicing.parties (name, phone) values ('Acme', '1') returning id`);
  await as(db.sql, me, (tx) => tx`update invoicing.parties set phone = '2', city = 'Pune' where id = ${party.id}`);
  await as(db.sql, me, (tx) => tx`update invoicing.parties set phone = '2' where id = ${party.id}`);  // no-op: not logged
  await as(db.sql, me, (tx) => tx`delete from invoicing.parties where id = ${party.id}`);
  const rows = await log(party.id);
  expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
  expect(rows.every((r) => r.user_id === owner && r.user_name === 'Priya Shah' && r.entity_type === 'parties')).toBe(true);
  expect(rows[0].summary).toBe('Created parties: Acme');
  expect(rows[1].changes).toEqual({ phone: { old: '1', new: '2' }, city: { old: null, new: 'Pune' } });
});

it('is written in the same transaction: a rolled-back change leaves no entry', async () => {
  let id = '';
  await as(db.sql, { userId: owner }, async (tx) => {
    [{ id }] = await tx`insert into invoicing.items (name) values ('Ghost') returning id`;
    throw new Error('rollback');
  }).catch(() => {});
  expect(await log(id)).toHaveLength(0);
});

it('cannot be updated or deleted, by the owner or even a superuser', async () => {
  await as(db.sql, { userId: owner }, (tx) => tx`insert into invoicing.categories (name) values ('Audit me')`);
  expect(await sqlState(as(db.sql, { userId: owner }, (tx) => tx`update invoicing.activity_log set summary = 'x'`))).toBe('42501');
  expect(await sqlState(as(db.sql, { userId: owner }, (tx) => tx`delete from invoicing.activity_log`))).toBe('42501');
  expect(await sqlState(db.sql`update invoicing.activity_log set summary = 'x'`)).toBe('42501');
  expect(await sqlState(db.sql`delete from invoicing.activity_log where company_id = ${company}`)).toBe('42501');
  const [n] = await db.sql`select count(*)::int as n from invoicing.activity_log where company_id = ${company} and summary = 'x'`;
  expect(n.n).toBe(0);
});

it('logs every row of a multi-row statement (bulk insert and update)', async () => {
  const me = { userId: owner };
  const ids = await as(db.sql, me, (tx) =>
    tx`insert into invoicing.restaurant_areas (name, sort_order) values ('A', 1), ('B', 2), ('C', 3) returning id`);
  await as(db.sql, me, (tx) => tx`update invoicing.restaurant_areas set sort_order = sort_order + 10 where name in ('A', 'B')`);
  const counts = await db.sql`
    select action, count(*)::int as n from invoicing.activity_log
    where entity_id = any(${ids.map((r) => r.id)}::uuid[]) group by action order by action`;
  expect(counts).toEqual([{ action: 'create', n: 3 }, { action: 'update', n: 2 }]);
});
