// Every report against an independent computation over the raw rows: a few thousand generated
// invoices (set-based INSERT … SELECT generate_series, run as the owner so every rule fires),
// payments settling them FIFO, expenses, returns; then each report's figures are recomputed in
// TypeScript, in integer paise, from plain SELECTs of the rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rulesWorld, type RulesWorld } from './helpers.ts';

let w: RulesWorld;
const FROM = '2025-04-01';
const TO = '2026-03-31';
const paise = (v: unknown) => Math.round(Number(v) * 100);
const report = (fn: string, ...args: unknown[]) =>
  w.run(async (tx) => (await tx.unsafe(`select invoicing.${fn}(${args.map((_, i) => `$${i + 1}`).join(', ')}) as data`, args as never[]))[0].data);

beforeAll(async () => {
  w = await rulesWorld({ gstin: '27AAPFU0939F1ZV' });
  await w.run(async (tx) => {
    // 20 parties: even ones in Maharashtra (intra), odd ones in Karnataka (inter); a third registered
    await tx`insert into invoicing.parties (name, type, state_code, gstin, opening_balance, opening_balance_type)
             select 'Party ' || g, (array['customer','supplier','both'])[1 + g % 3],
                    case when g % 2 = 0 then '27' else '29' end,
                    case when g % 3 = 0 then (case when g % 2 = 0 then '27' else '29' end) || 'AABCA' || lpad(g::text, 4, '0') || 'C1Z5' end,
                    (g * 100)::numeric, case when g % 4 = 0 then 'to_pay' else 'to_receive' end
             from generate_series(1, 20) g`;
    await tx`insert into invoicing.items (name, hsn_code, gst_rate, opening_stock, purchase_price, min_stock)
             select 'Item ' || g, '84' || lpad(g::text, 2, '0'), (array[0, 5, 12, 18, 28])[1 + g % 5], 1000, 10 * g, 990
             from generate_series(1, 10) g`;
    // 2,000 sales and purchases over 15 months (some outside the report period)
    await tx`insert into invoicing.invoices (type, date, party_id, invoice_number)
             select case when g % 3 = 0 then 'purchase' else 'sale' end, date '2025-02-01' + (g % 450),
                    p.id, case when g % 3 = 0 then 'P-' || g end
             from generate_series(1, 2000) g
             join lateral (select id from invoicing.parties order by name offset (g % 20) limit 1) p on true`;
    // returns of every 10th of them
    await tx`insert into invoicing.invoices (type, date, party_id, original_invoice_id)
             select case o.type when 'sale' then 'sale_return' else 'purchase_return' end, o.date + 3, o.party_id, o.id
             from (select *, row_number() over (order by id) as n from invoicing.invoices) o where o.n % 10 = 0`;
    // two or three lines each, mixed rates, some tax-inclusive, some discounted
    await tx`insert into invoicing.invoice_items (invoice_id, item_id, item_name, qty, rate, gst_rate, price_incl_tax, discount_pct)
             select i.id, it.id, it.name, 1 + (n + ascii(i.id::text)) % 7, 10 + (ascii(right(i.id::text, 1)) * n) % 997 + 0.37 * n,
                    it.gst_rate, n = 3, case when n = 2 then 5 else 0 end
             from invoicing.invoices i
             cross join generate_series(1, 3) n
             join lateral (select * from invoicing.items order by name offset ((n + ascii(i.id::text)) % 10) limit 1) it on true
             where n < 3 or ascii(i.id::text) % 2 = 0`;
    // payments settle FIFO (one row at a time through the trigger), expenses
    await tx`insert into invoicing.payments (type, date, party_id, amount)
             select case when g % 2 = 0 then 'in' else 'out' end, date '2025-03-01' + g, p.id, 500 + g * 7
             from generate_series(1, 300) g
             join lateral (select id from invoicing.parties order by name offset (g % 20) limit 1) p on true`;
    await tx`insert into invoicing.expenses (date, amount, gst_rate, place_of_supply)
             select date '2025-03-01' + g * 3, 100 + g, 18, case when g % 2 = 0 then '29' end from generate_series(1, 150) g`;
  });
  await w.sql`analyze`;  // what autovacuum would do after a bulk load
}, 60_000);
afterAll(async () => w?.db.drop());

async function rawInvoices() {
  return w.sql`select * from invoicing.invoices where company_id = ${w.companyId}`;
}
const inPeriod = (d: Date | string) => {
  const s = typeof d === 'string' ? d : d.toISOString().slice(0, 10);
  return s >= FROM && s <= TO;
};

describe('reconciliation', () => {
  it('every invoice header equals its lines (subtotal, heads, round-off)', async () => {
    const bad = await w.sql`
      select i.id from invoicing.invoices i
      join (select invoice_id, sum(taxable_value) t, sum(cgst) c, sum(sgst) s, sum(igst) g
            from invoicing.invoice_items group by 1) l on l.invoice_id = i.id
      where i.subtotal <> l.t or i.cgst <> l.c or i.sgst <> l.s or i.igst <> l.g
         or i.total <> round(l.t + l.c + l.s + l.g) or abs(i.round_off) > 0.5`;
    expect(bad).toEqual([]);
    expect((await rawInvoices()).length).toBeGreaterThan(2000);
  });

  it('summary', async () => {
    const inv = (await rawInvoices()).filter((r) => inPeriod(r.date));
    const of = (t: string) => inv.filter((r) => r.type === t);
    const sum = (rows: Record<string, unknown>[], k: string) => rows.reduce((s, r) => s + paise(r[k]), 0) / 100;
    const pays = (await w.sql`select * from invoicing.payments`).filter((r) => inPeriod(r.date));
    const exps = (await w.sql`select * from invoicing.expenses`).filter((r) => inPeriod(r.date));
    const data = await report('report_summary', FROM, TO);
    expect(data).toEqual({
      period: { from: FROM, to: TO },
      sales: { count: of('sale').length, total: sum(of('sale'), 'total'), received: sum(of('sale'), 'amount_paid') },
      purchases: { count: of('purchase').length, total: sum(of('purchase'), 'total'), paid: sum(of('purchase'), 'amount_paid') },
      saleReturns: { count: of('sale_return').length, total: sum(of('sale_return'), 'total') },
      purchaseReturns: { count: of('purchase_return').length, total: sum(of('purchase_return'), 'total') },
      paymentsIn: sum(pays.filter((p) => p.type === 'in'), 'amount'),
      paymentsOut: sum(pays.filter((p) => p.type === 'out'), 'amount'),
      expenses: sum(exps, 'total'),
      grossProfit: (paise(sum(of('sale'), 'subtotal') * 100) - paise(sum(of('sale_return'), 'subtotal') * 100)
        - paise(sum(of('purchase'), 'subtotal') * 100) + paise(sum(of('purchase_return'), 'subtotal') * 100)) / 10000,
    });
    expect(data.sales.count).toBeGreaterThan(1000);
    expect(data.sales.received).toBeGreaterThan(0);
  });

  it('gst-summary', async () => {
    const inv = (await rawInvoices()).filter((r) => inPeriod(r.date));
    const block = (t: string) => {
      const rows = inv.filter((r) => r.type === t);
      const s = (k: string) => rows.reduce((a, r) => a + paise(r[k]), 0);
      return { taxable: s('subtotal') / 100, cgst: s('cgst') / 100, sgst: s('sgst') / 100, igst: s('igst') / 100,
        total: (s('cgst') + s('sgst') + s('igst')) / 100, invoices: rows.length };
    };
    const [o, i, c, d] = ['sale', 'purchase', 'sale_return', 'purchase_return'].map(block);
    const data = await report('report_gst_summary', FROM, TO);
    expect(data).toEqual({
      period: { from: FROM, to: TO }, outputTax: o, inputTax: i, creditNotes: c, debitNotes: d,
      netPayable: (paise(o.total) - paise(c.total) - paise(i.total) + paise(d.total)) / 100,
    });
    expect(o.igst).toBeGreaterThan(0);
    expect(o.cgst).toBeGreaterThan(0);
  });

  it('outstanding', async () => {
    const parties = await w.sql`select * from invoicing.parties`;
    const inv = await rawInvoices();
    const pays = await w.sql`select * from invoicing.payments`;
    const sign: Record<string, number> = { sale: 1, purchase_return: 1, sale_return: -1, purchase: -1 };
    const expected = new Map<string, number>();
    for (const p of parties) expected.set(p.id, (p.opening_balance_type === 'to_pay' ? -1 : 1) * paise(p.opening_balance));
    for (const r of inv) expected.set(r.party_id, expected.get(r.party_id)! + sign[r.type] * (paise(r.total) - paise(r.amount_paid)));
    for (const p of pays) expected.set(p.party_id, expected.get(p.party_id)! + (p.type === 'in' ? -1 : 1) * paise(p.unallocated_amount));
    const data = await report('report_outstanding', null);
    const got = new Map<string, number>(data.parties.map((p: { id: string; balance: number }) => [p.id, Math.round(p.balance * 100)]));
    for (const [id, bal] of expected) expect(got.get(id) ?? 0).toBe(bal);
    const customers = await report('report_outstanding', 'customer');
    expect(customers.parties.every((p: { type: string }) => p.type !== 'supplier')).toBe(true);
    expect(Math.round(data.totals.net * 100)).toBe([...expected.values()].reduce((a, b) => a + b, 0));
  });

  it('stock: opening stock plus every line, by hand', async () => {
    const items = await w.sql`select * from invoicing.items`;
    const lines = await w.sql`select l.item_id, l.qty, i.type from invoicing.invoice_items l join invoicing.invoices i on i.id = l.invoice_id`;
    const dir: Record<string, number> = { sale: -1, sale_return: 1, purchase: 1, purchase_return: -1 };
    const data = await report('report_stock', null, null);
    for (const it of items) {
      const moved = lines.filter((l) => l.item_id === it.id).reduce((s, l) => s + dir[l.type] * Math.round(Number(l.qty) * 1000), 0);
      const row = data.items.find((r: { id: string }) => r.id === it.id);
      expect(Math.round(row.stock * 1000)).toBe(1000 * 1000 + moved);
      expect(row.value).toBe(Math.round(row.stock * Number(it.purchase_price) * 100) / 100);
      expect(row.low_stock).toBe(row.stock <= 990);
    }
    const low = await report('report_stock', null, true);
    expect(low.items.every((r: { low_stock: boolean }) => r.low_stock)).toBe(true);
    expect(low.totals.items).toBe(data.items.filter((r: { low_stock: boolean }) => r.low_stock).length);
    expect((await report('report_stock', 'item 1', null)).items.map((r: { name: string }) => r.name)).toEqual(['Item 1', 'Item 10']);
  });

  it('gstr1: sections partition the sales, and agree with the lines', async () => {
    const data = await report('report_gstr1', FROM, TO);
    const inv = (await rawInvoices()).filter((r) => inPeriod(r.date));
    const txval = (itms: { itm_det: { txval: number } }[]) => itms.reduce((s, x) => s + paise(x.itm_det.txval), 0);
    const b2b = data.b2b.flatMap((c: { inv: { itms: never[] }[] }) => c.inv);
    const b2cl = data.b2cl.flatMap((c: { inv: { itms: never[] }[] }) => c.inv);
    const sales = inv.filter((r) => r.type === 'sale');
    expect(b2b.length).toBe(sales.filter((r) => r.party_gstin).length);
    const total = b2b.reduce((s: number, i: { itms: never[] }) => s + txval(i.itms), 0)
      + b2cl.reduce((s: number, i: { itms: never[] }) => s + txval(i.itms), 0)
      + data.b2cs.reduce((s: number, r: { txval: number }) => s + paise(r.txval), 0);
    expect(total).toBe(sales.reduce((s, r) => s + paise(r.subtotal), 0));
    const notes = data.cdnr.flatMap((c: { nt: unknown[] }) => c.nt);
    expect(notes.length).toBe(inv.filter((r) => r.type === 'sale_return' && r.party_gstin).length);
    expect(data.b2b[0].inv[0]).toMatchObject({ idt: expect.stringMatching(/^\d{2}-\d{2}-\d{4}$/), rchrg: 'N', inv_typ: 'R' });
    expect(data.hsn.data.length).toBeGreaterThan(0);
  });
});
