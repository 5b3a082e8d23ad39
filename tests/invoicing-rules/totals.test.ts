// Invoice money by hand: intra-state (CGST+SGST) and inter-state (IGST) lines, discounts,
// tax-inclusive prices (with cess), round-off on and off, and the client's totals being checked
// by invoicing.create_invoice_with_items. Figures worked out on paper, half-up to the paisa.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, num, rulesWorld, type RulesWorld } from './helpers.ts';

let w: RulesWorld;
let pune: string;   // same state as the business (27)
let blr: string;    // Karnataka (29)
let sez: string;    // an SEZ unit in Maharashtra: still inter-state (zero-rated supply)

beforeAll(async () => {
  w = await rulesWorld();
  pune = (await w.insert('parties', { name: 'Pune Traders', state_code: '27' })).id;
  blr = (await w.insert('parties', { name: 'Bengaluru Books', state: 'Karnataka' })).id;
  sez = (await w.insert('parties', { name: 'SEZ Unit', state_code: '27', gst_type: 'sez' })).id;
});
afterAll(async () => w?.db.drop());

// 3 × 99.99 @18%: taxable 299.97, GST 53.9946 → 53.99, CGST 26.995 → 27.00, SGST 26.99
// 2 × 250 − 10% @12%: taxable 450.00, GST 54.00 (27.00 + 27.00)
// subtotal 749.97 + tax 107.99 = 857.96 → total 858.00, round_off +0.04
const LINES = [
  { item_name: 'Cable', qty: 3, rate: 99.99, gst_rate: 18 },
  { item_name: 'Lamp', qty: 2, rate: 250, discount_pct: 10, gst_rate: 12 },
];

async function invoiceWith(partyId: string | null, lines: object[], extra: object = {}) {
  const fields = Object.fromEntries(Object.entries({ type: 'sale', party_id: partyId, party_name: 'Cash', ...extra })
    .filter(([, v]) => v !== undefined));
  const inv = await w.insert('invoices', fields);
  for (const l of lines) await w.insert('invoice_items', { invoice_id: inv.id, ...l });
  const stored = await w.row('invoices', inv.id);
  const items = await w.sql`select * from invoicing.invoice_items where invoice_id = ${inv.id} order by item_name`;
  return { inv: stored, items };
}

describe('intra-state', () => {
  it('splits GST into CGST and SGST, rounds each line, rounds the total', async () => {
    const { inv, items } = await invoiceWith(pune, LINES);
    const [cable, lamp] = items;
    expect([cable.taxable_value, cable.gst_amount, cable.cgst, cable.sgst, cable.igst, cable.amount])
      .toEqual(['299.97', '53.99', '27.00', '26.99', '0.00', '353.96']);
    expect([lamp.discount_amount, lamp.taxable_value, lamp.cgst, lamp.sgst, lamp.amount])
      .toEqual(['50.00', '450.00', '27.00', '27.00', '504.00']);
    expect([inv.subtotal, inv.cgst, inv.sgst, inv.igst, inv.round_off, inv.total, inv.discount_amount])
      .toEqual(['749.97', '54.00', '53.99', '0.00', '0.04', '858.00', '50.00']);
    expect(inv.place_of_supply).toBe('27');
    expect(inv.party_name).toBe('Cash');  // the client's snapshot wins over the party's name
  });
});

describe('inter-state', () => {
  it('charges IGST when the party is in another state (state name mapped to its code)', async () => {
    const { inv, items } = await invoiceWith(blr, LINES, { party_name: undefined });
    expect(items.map((l) => [l.cgst, l.sgst, l.igst])).toEqual([['0.00', '0.00', '53.99'], ['0.00', '0.00', '54.00']]);
    expect([inv.subtotal, inv.cgst, inv.sgst, inv.igst, inv.round_off, inv.total]).toEqual(['749.97', '0.00', '0.00', '107.99', '0.04', '858.00']);
    expect([inv.place_of_supply, inv.party_name]).toEqual(['29', 'Bengaluru Books']);
  });

  it('charges IGST to an SEZ unit in the same state', async () => {
    const { inv } = await invoiceWith(sez, LINES);
    expect([inv.cgst, inv.igst]).toEqual(['0.00', '107.99']);
  });

  it('uses place_of_supply over the party, and re-prices lines when it changes', async () => {
    const { inv } = await invoiceWith(pune, LINES, { place_of_supply: '07' });
    expect(inv.igst).toBe('107.99');
    await w.run((tx) => tx`update invoicing.invoices set place_of_supply = '27' where id = ${inv.id}`);
    const after = await w.row('invoices', inv.id);
    expect([after.cgst, after.sgst, after.igst, after.total]).toEqual(['54.00', '53.99', '0.00', '858.00']);
  });
});

describe('tax-inclusive prices', () => {
  it('backs the tax out of the price: taxable = round2(net / (1 + rate%)), GST = net − taxable', async () => {
    const cessItem = (await w.insert('items', { name: 'Cola', gst_rate: 28, cess_rate: 12 })).id;
    const { items, inv } = await invoiceWith(pune, [
      { item_name: 'A 18%', qty: 1, rate: 118, gst_rate: 18, price_incl_tax: true },  // 100.00 + 18.00
      { item_name: 'B 5%', qty: 1, rate: 100, gst_rate: 5, price_incl_tax: true },    // 95.24 + 4.76 (2.38 + 2.38)
      { item_name: 'C cess', item_id: cessItem, qty: 1, rate: 140, gst_rate: 28, price_incl_tax: true },  // 100 + 28 + cess 12
    ]);
    expect(items.map((l) => [l.taxable_value, l.gst_amount, l.cgst, l.sgst, l.cess_amount, l.amount])).toEqual([
      ['100.00', '18.00', '9.00', '9.00', '0.00', '118.00'],
      ['95.24', '4.76', '2.38', '2.38', '0.00', '100.00'],
      ['100.00', '28.00', '14.00', '14.00', '12.00', '140.00'],
    ]);
    expect([inv.subtotal, inv.cess, inv.total, inv.round_off]).toEqual(['295.24', '12.00', '358.00', '0.00']);
  });
});

describe('round-off', () => {
  it('is zero when business_profile.round_off_enabled is false', async () => {
    await w.sql`update invoicing.business_profile set round_off_enabled = false where company_id = ${w.companyId}`;
    try {
      const { inv } = await invoiceWith(pune, LINES);
      expect([inv.round_off, inv.total]).toEqual(['0.00', '857.96']);
    } finally {
      await w.sql`update invoicing.business_profile set round_off_enabled = true where company_id = ${w.companyId}`;
    }
  });

  it('rounds down too (pre 100.30 → total 100.00, round_off −0.30)', async () => {
    const { inv } = await invoiceWith(pune, [{ item_name: 'X', qty: 1, rate: 85, gst_rate: 18 }]);  // 85 + 15.30
    expect([inv.round_off, inv.total]).toEqual(['-0.30', '100.00']);
  });
});

describe('derived columns', () => {
  it('recomputes the header when a line changes or goes, and ignores a client total on an invoice with lines', async () => {
    const { inv, items } = await invoiceWith(pune, LINES);
    await w.run((tx) => tx`update invoicing.invoices set total = 1, subtotal = 1, status = 'paid' where id = ${inv.id}`);
    expect((await w.row('invoices', inv.id)).total).toBe('858.00');
    await w.run((tx) => tx`delete from invoicing.invoice_items where id = ${items[1].id}`);
    const after = await w.row('invoices', inv.id);
    expect([after.subtotal, after.total, after.round_off]).toEqual(['299.97', '354.00', '0.04']);
  });

  it('derives status from amount_paid against total, never from the client', async () => {
    const { inv } = await invoiceWith(pune, LINES, { status: 'paid' });
    expect(inv.status).toBe('unpaid');
    await w.run((tx) => tx`update invoicing.invoices set amount_paid = 100, status = 'paid' where id = ${inv.id}`);
    expect((await w.row('invoices', inv.id)).status).toBe('partial');
    await w.run((tx) => tx`update invoicing.invoices set amount_paid = 857.996 where id = ${inv.id}`);
    expect((await w.row('invoices', inv.id)).status).toBe('paid');
  });

  it('numbers our own sales when the client sends no number', async () => {
    const a = await w.insert('invoices', { type: 'sale', party_name: 'Cash' });
    const b = await w.insert('invoices', { type: 'sale', party_name: 'Cash' });
    expect(a.invoice_number).toMatch(/^INV-\d{4}$/);
    expect(Number(b.invoice_number.slice(4))).toBe(Number(a.invoice_number.slice(4)) + 1);
  });
});

describe('create_invoice_with_items', () => {
  const create = (invoice: object, items: object[]) =>
    w.run(async (tx) => (await tx`select invoicing.create_invoice_with_items(${tx.json(invoice as never)}, ${tx.json(items as never)}) as data`)[0].data);

  it('fills what the client omits and returns the invoice with its lines', async () => {
    const data = await create({ type: 'sale', party_id: pune, status: 'paid' }, LINES);
    expect(data).toMatchObject({ party_name: 'Pune Traders', total: 858, round_off: 0.04, status: 'unpaid' });
    expect(data.items.map((l: { amount: number }) => l.amount)).toEqual([353.96, 504]);
  });

  it('accepts client totals within 0.01 and refuses one that disagrees, naming the field', async () => {
    await create({ type: 'sale', party_id: pune, total: 858.01, cgst: 54 }, LINES);
    const bad = await failure(create({ type: 'sale', party_id: pune, total: 859 }, LINES));
    expect(bad.code).toBe('23514');
    expect(bad.message).toMatch(/^total: sent 859 but the lines add up to 858/);
    const line = await failure(create({ type: 'sale', party_id: pune }, [LINES[0], { ...LINES[1], amount: 500 }]));
    expect(line.message).toMatch(/^items\[1\]\.amount/);
    const unknown = await failure(create({ type: 'sale', party_id: pune, colour: 'red' }, LINES));
    expect(unknown.message).toMatch(/colour/);
  });

  it('rolls everything back on a bad line', async () => {
    const before = (await w.sql`select count(*)::int as n from invoicing.invoices`)[0].n;
    const bad = await failure(create({ type: 'sale', party_id: pune }, [{ item_name: 'Neg', qty: -1, rate: 1 }]));
    expect(bad.code).toBe('23514');
    expect((await w.sql`select count(*)::int as n from invoicing.invoices`)[0].n).toBe(before);
  });
});

it('num() helper reads numeric strings', () => expect(num('1.50')).toBe(1.5));
