// Recurring invoices (idempotent daily job, month-end clamping, completion) and loyalty points
// (earn on sales, redeem as a payment, reverse on returns, the party's cached balance).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, rulesWorld, type RulesWorld } from './helpers.ts';

let w: RulesWorld;
let party: string;
beforeAll(async () => {
  w = await rulesWorld();
  await w.sql`update invoicing.business_profile
               set loyalty = ${w.sql.json({ earn_amount: 100, point_value: 0.5, min_redeem_points: 10, expiry_days: 30 })}
               where company_id = ${w.companyId}`;
  party = (await w.insert('parties', { name: 'Loyal', state_code: '27', loyalty_enabled: true })).id;
});
afterAll(async () => w?.db.drop());
const job = (today: string) => w.sql`select app.invoicing_run_recurring(${today}::date) as n`.then((r) => r[0].n as number);

describe('recurring invoices', () => {
  it('creates one invoice per period, from the template, and never twice for a day', async () => {
    const tpl = (await w.insert('invoices', { type: 'sale', party_id: party, date: '2025-01-01' })).id;
    await w.insert('invoice_items', { invoice_id: tpl, item_name: 'AMC', qty: 1, rate: 1000, gst_rate: 18 });
    const r = await w.insert('recurring_invoices', {
      name: 'AMC', party_id: party, template_invoice_id: tpl, frequency: 'monthly',
      start_date: '2025-01-31', next_run_date: '2025-01-31', due_days: 15, max_occurrences: 4,
    });
    expect(await job('2025-03-01')).toBe(2);   // Jan 31 and Feb 28
    expect(await job('2025-03-01')).toBe(0);   // same day again: nothing new
    const made = await w.sql`select date::text, due_date::text, total, invoice_number from invoicing.invoices
                             where recurring_invoice_id = ${r.id} order by date`;
    expect(made.map((m) => [m.date, m.due_date, m.total])).toEqual([
      ['2025-01-31', '2025-02-15', '1180.00'], ['2025-02-28', '2025-03-15', '1180.00']]);
    expect(new Set(made.map((m) => m.invoice_number)).size).toBe(2);
    let s = await w.row('recurring_invoices', r.id);
    expect([s.next_run_date.toISOString().slice(0, 10), s.occurrences_generated, s.status]).toEqual(['2025-03-31', 2, 'active']);
    expect(await job('2025-12-31')).toBe(2);   // Mar 31, Apr 30, then max_occurrences
    s = await w.row('recurring_invoices', r.id);
    expect([s.occurrences_generated, s.status]).toEqual([4, 'completed']);
  });

  it('is scheduled daily with cron.schedule', async () => {
    const [j] = await w.sql`select schedule, command from cron.job where jobname = 'invoicing-recurring-invoices'`;
    expect(j).toEqual({ schedule: '5 0 * * *', command: 'select app.invoicing_run_recurring()' });
  });

  it('can be run for one schedule by a member (POST …/:id/run)', async () => {
    const r = await w.insert('recurring_invoices', {
      name: 'Weekly', party_id: party, frequency: 'weekly', start_date: '2025-06-02', next_run_date: '2025-06-02',
      items: w.sql.json([{ item_name: 'Box', qty: 2, rate: 50, gst_rate: 5 }]),
    });
    const n = await w.run(async (tx) => (await tx`select invoicing.run_recurring_invoice(${r.id}, '2025-06-10') as n`)[0].n);
    expect(n).toBe(2);
    const [inv] = await w.sql`select total from invoicing.invoices where recurring_invoice_id = ${r.id} order by date limit 1`;
    expect(inv.total).toBe('105.00');
  });
});

describe('loyalty', () => {
  it('earns on sales, redeems as a payment, reverses on returns', async () => {
    const balance = async () => Number((await w.row('parties', party)).loyalty_points);
    const start = await balance();  // the recurring invoices above earned points already
    const sale = (await w.insert('invoices', { type: 'sale', party_id: party, date: '2025-07-01' })).id;
    await w.insert('invoice_items', { invoice_id: sale, item_name: 'TV', qty: 1, rate: 2000, gst_rate: 18 });  // 2360 → 23 points
    expect(await balance()).toBe(start + 23);
    expect((await w.row('invoices', sale)).loyalty_points_earned).toBe('23.00');

    const bad = await failure(w.insert('invoices', { type: 'sale', party_id: party, loyalty_points_redeemed: 5 }));
    expect(bad.message).toMatch(/^loyalty_points_redeemed must be between 10/);
    const redeem = await w.insert('invoices', { type: 'sale', party_id: party, loyalty_points_redeemed: 20 });
    expect([redeem.loyalty_amount, redeem.amount_paid]).toEqual(['10.00', '10.00']);
    expect(await balance()).toBe(start + 3);

    const ret = (await w.insert('invoices', { type: 'sale_return', party_id: party, original_invoice_id: sale })).id;
    await w.insert('invoice_items', { invoice_id: ret, item_name: 'TV', qty: 1, rate: 1000, gst_rate: 18 });  // 1180 → −11
    expect(await balance()).toBe(start + 3 - 11);
    const rows = await w.sql`select type, points from invoicing.loyalty_transactions where invoice_id in (${sale}, ${redeem.id}, ${ret}) order by type`;
    expect(rows.map((r) => [r.type, Number(r.points)])).toEqual([['earn', 23], ['redeem', -20], ['reverse', -11]]);
  });
});
