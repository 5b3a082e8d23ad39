// Payments settle invoices (named invoice, explicit allocations, else FIFO by date), edits and
// deletes reverse in the same transaction, advances count in the party balance; expense
// payments settle expenses and cannot overpay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, rulesWorld, type RulesWorld } from './helpers.ts';

let w: RulesWorld;
let party: string;
let other: string;

beforeAll(async () => {
  w = await rulesWorld();
  party = (await w.insert('parties', { name: 'Acme', state_code: '27', opening_balance: 1000 })).id;
  other = (await w.insert('parties', { name: 'Other', state_code: '27' })).id;
});
afterAll(async () => w?.db.drop());

/** A header-only invoice with a given total (no lines: the client's total stands). */
const invoice = async (type: string, date: string, total: number, partyId = party) =>
  (await w.insert('invoices', { type, date, total, party_id: partyId })).id as string;
const paid = async (id: string) => {
  const r = await w.row('invoices', id);
  return [r.amount_paid, r.status];
};
const pay = (row: Record<string, unknown>) => w.insert('payments', { type: 'in', party_id: party, ...row });
const balance = async (id = party) =>
  w.run(async (tx) => Number((await tx`select invoicing.party_balance(${id}) as b`)[0].b));

describe('payments in', () => {
  let jan: string, feb: string, mar: string;
  beforeAll(async () => {
    jan = await invoice('sale', '2025-01-10', 300);
    feb = await invoice('sale', '2025-02-10', 500);
    mar = await invoice('sale', '2025-03-10', 200);
  });

  it('FIFO: oldest first, the rest an advance; the party balance follows', async () => {
    expect(await balance()).toBe(1000 + 1000);
    const p = await pay({ amount: 650 });
    expect(await paid(jan)).toEqual(['300.00', 'paid']);
    expect(await paid(feb)).toEqual(['350.00', 'partial']);
    expect(await paid(mar)).toEqual(['0.00', 'unpaid']);
    expect(p.allocations).toEqual([{ invoice_id: jan, amount: 300 }, { invoice_id: feb, amount: 350 }]);
    expect(p.unallocated_amount).toBe('0.00');
    expect(await balance()).toBe(2000 - 650);

    // edit: reverse and re-apply the same allocations, trimmed to the new amount
    await w.run((tx) => tx`update invoicing.payments set amount = 400 where id = ${p.id}`);
    expect(await paid(feb)).toEqual(['100.00', 'partial']);
    // allocations: [] asks for FIFO again
    await w.run((tx) => tx`update invoicing.payments set amount = 1200, allocations = '[]' where id = ${p.id}`);
    expect([await paid(jan), await paid(feb), await paid(mar)]).toEqual([['300.00', 'paid'], ['500.00', 'paid'], ['200.00', 'paid']]);
    expect((await w.row('payments', p.id)).unallocated_amount).toBe('200.00');
    expect(await balance()).toBe(2000 - 1200);

    // delete: everything reversed
    await w.run((tx) => tx`delete from invoicing.payments where id = ${p.id}`);
    expect([await paid(jan), await paid(feb), await paid(mar)]).toEqual([['0.00', 'unpaid'], ['0.00', 'unpaid'], ['0.00', 'unpaid']]);
    expect(await balance()).toBe(2000);
  });

  it('a named invoice takes min(amount, balance); the rest is an advance', async () => {
    const p = await pay({ amount: 250, invoice_id: mar });
    expect(await paid(mar)).toEqual(['200.00', 'paid']);
    expect(p.unallocated_amount).toBe('50.00');
    // moving it to another invoice reverses the first
    await w.run((tx) => tx`update invoicing.payments set invoice_id = ${feb} where id = ${p.id}`);
    expect([await paid(mar), await paid(feb)]).toEqual([['0.00', 'unpaid'], ['250.00', 'partial']]);
    await w.run((tx) => tx`delete from invoicing.payments where id = ${p.id}`);
  });

  it('explicit allocations, each capped by the invoice balance', async () => {
    const p = await pay({ amount: 400, allocations: w.sql.json([{ invoice_id: mar, amount: 300 }, { invoice_id: jan, amount: 100 }]) });
    expect(p.allocations).toEqual([{ invoice_id: mar, amount: 200 }, { invoice_id: jan, amount: 100 }]);
    expect(p.unallocated_amount).toBe('100.00');
    // deleting an invoice turns what was allocated to it into an advance
    await w.run((tx) => tx`delete from invoicing.invoices where id = ${mar}`);
    const after = await w.row('payments', p.id);
    expect([after.allocations, after.unallocated_amount]).toEqual([[{ invoice_id: jan, amount: 100 }], '300.00']);
    await w.run((tx) => tx`delete from invoicing.payments where id = ${p.id}`);
    expect(await paid(jan)).toEqual(['0.00', 'unpaid']);
  });

  it('refuses an invoice of the wrong kind or party, naming the field', async () => {
    const purchase = await invoice('purchase', '2025-01-01', 100);
    expect((await failure(pay({ amount: 10, invoice_id: purchase }))).message).toMatch(/^invoice_id: a payment in settles sale and purchase_return/);
    const others = await invoice('sale', '2025-01-01', 100, other);
    expect((await failure(pay({ amount: 10, invoice_id: others }))).message).toMatch(/^invoice_id: .*another party/);
    expect((await failure(pay({ amount: 10, allocations: w.sql.json([{ invoice_id: 'x' }]) }))).message).toMatch(/^allocations\[0\]/);
    expect((await failure(pay({ amount: -5 }))).code).toBe('23514');
  });
});

describe('payments out', () => {
  it('settle purchases and sale-return refunds, oldest first; balances go negative (we owe)', async () => {
    const supplier = (await w.insert('parties', { name: 'Supplier', type: 'supplier', opening_balance: 100, opening_balance_type: 'to_pay' })).id;
    const p1 = (await w.insert('invoices', { type: 'purchase', date: '2025-01-05', total: 400, party_id: supplier })).id;
    expect(await balance(supplier)).toBe(-500);
    const p = await w.insert('payments', { type: 'out', party_id: supplier, amount: 450 });
    expect(await paid(p1)).toEqual(['400.00', 'paid']);
    expect(p.unallocated_amount).toBe('50.00');
    expect(await balance(supplier)).toBe(-500 + 450);
  });
});

describe('expense payments', () => {
  it('settle the expense, derive its status, and refuse an overpayment naming amount', async () => {
    const e = await w.insert('expenses', { amount: 1000, gst_rate: 18, amount_paid: 999, status: 'paid' });
    expect([e.cgst, e.sgst, e.gst_amount, e.total, e.amount_paid, e.status]).toEqual(['90.00', '90.00', '180.00', '1180.00', '0.00', 'unpaid']);
    const p = await w.insert('expense_payments', { expense_id: e.id, amount: 500 });
    expect([(await w.row('expenses', e.id)).amount_paid, (await w.row('expenses', e.id)).status]).toEqual(['500.00', 'partial']);
    const over = await failure(w.insert('expense_payments', { expense_id: e.id, amount: 700 }));
    expect([over.code, over.message]).toEqual(['23514', 'amount: payments would exceed the expense total']);
    await w.insert('expense_payments', { expense_id: e.id, amount: 680 });
    expect((await w.row('expenses', e.id)).status).toBe('paid');
    await w.run((tx) => tx`delete from invoicing.expense_payments where id = ${p.id}`);
    expect([(await w.row('expenses', e.id)).amount_paid, (await w.row('expenses', e.id)).status]).toEqual(['680.00', 'partial']);
  });
});
