// The period reports run as security definer (for a parallel plan), so they do the read policies'
// work themselves: only the caller's active company, only resources the caller may read.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addMember, as, makeCompany, makeUser, sqlState } from '../invoicing-db/personas.ts';

let db: TestDatabase;
let ownerA: string;
let ownerB: string;
let companyA: string;
let companyB: string;

const summary = (caller: Parameters<typeof as>[1]) =>
  as(db.sql, caller, async (tx) => (await tx`select invoicing.report_summary('2025-01-01', '2025-12-31') as d`)[0].d);

beforeAll(async () => {
  db = await createTestDatabase();
  ownerA = await makeUser(db.sql, 'Owner A');
  ownerB = await makeUser(db.sql, 'Owner B');
  companyA = await makeCompany(db.sql, ownerA, 'A');
  companyB = await makeCompany(db.sql, ownerB, 'B');
  for (const [owner, company, total] of [[ownerA, companyA, '100.00'], [ownerB, companyB, '900.00']] as const) {
    await as(db.sql, { userId: owner, companyId: company }, async (tx) => {
      await tx`insert into invoicing.invoices (type, invoice_number, date, party_name, total, subtotal) values ('sale', 'S-1', '2025-05-01', 'Cash', ${total}, ${total})`;
      const [p] = await tx`insert into invoicing.parties (name) values ('Payer') returning id`;
      await tx`insert into invoicing.payments (type, date, party_id, amount, mode) values ('in', '2025-05-02', ${p.id}, 40, 'cash')`;
    });
  }
});
afterAll(() => db?.drop());

it('counts only the active company', async () => {
  const a = await summary({ userId: ownerA, companyId: companyA });
  expect(a.sales).toMatchObject({ count: 1, total: 100 });
  expect(a.paymentsIn).toBe(40);
});

it('refuses a company the caller is not in, and a caller with no company', async () => {
  expect(await sqlState(summary({ userId: ownerA, companyId: companyB }))).toBe('42501');
  const loner = await makeUser(db.sql, 'Loner');
  expect(await sqlState(summary({ userId: loner }))).toBe('42501');
  expect(await sqlState(summary({ userId: null, role: 'anon' }))).toBe('42501');
});

it('leaves out what a member may not read, as the read policies would', async () => {
  const clerk = await makeUser(db.sql, 'Clerk');
  await addMember(db.sql, companyA, clerk, 'staff', { payments: { read: false, write: false } });
  const seen = await summary({ userId: clerk, companyId: companyA });
  expect(seen.sales).toMatchObject({ count: 1, total: 100 });
  expect(seen.paymentsIn).toBe(0);
  const [visible] = await as(db.sql, { userId: clerk, companyId: companyA }, (tx) => tx`select count(*)::int as n from invoicing.payments`);
  expect(visible.n).toBe(0); // the same answer RLS gives for the table itself
});
