// The GST rules and reports as a client meets them through the /v1 API: with-items fills what the
// client omits and refuses totals that disagree; reports answer in the spec's shape, 404 for an
// unknown report, 400 naming a bad parameter; another company's rows never count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startInvoicing, type InvoicingHarness, type Persona } from './support.ts';

let h: InvoicingHarness;
let owner: Persona;
let other: Persona;

// 2 × 1000 at 18 % within Maharashtra: taxable 2000, CGST 180, SGST 180, total 2360
const LINE = { item_name: 'Office chair', hsn_code: '9401', unit: 'PCS', qty: 2, rate: 1000, gst_rate: 18 };
const SALE = { type: 'sale', date: '2025-06-10', party_name: 'Walk-in', party_state: 'Maharashtra' };

beforeAll(async () => {
  h = await startInvoicing();
  owner = await h.owner('Rules Co');
  other = await h.owner('Other Co');
  for (const who of [owner, other]) {
    const profile = await h.call('/business-profile', { token: who.token });
    const patched = await h.call(`/business-profile/${profile.body.data[0].id}`, {
      token: who.token, method: 'PATCH', body: { state: 'Maharashtra', state_code: '27' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  }
});
afterAll(async () => h?.stop());

describe('POST /v1/invoices/with-items', () => {
  it('computes lines, tax heads and totals the client left out', async () => {
    const res = await h.call('/invoices/with-items', { token: owner.token, body: { ...SALE, invoice_number: 'R-1', items: [LINE] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ subtotal: 2000, cgst: 180, sgst: 180, igst: 0, total: 2360, status: 'unpaid' });
    expect(res.body.data.items).toHaveLength(1);
    expect(res.body.data.items[0]).toMatchObject({ gst_amount: 360, amount: 2360 });
  });

  it('charges IGST when the place of supply is another state', async () => {
    const res = await h.call('/invoices/with-items', {
      token: owner.token, body: { ...SALE, invoice_number: 'R-2', party_state: 'Karnataka', items: [LINE] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ cgst: 0, sgst: 0, igst: 360, total: 2360 });
  });

  it('accepts a client total within 0.01 and refuses one further off, naming the field', async () => {
    const close = await h.call('/invoices/with-items', { token: owner.token, body: { ...SALE, invoice_number: 'R-3', total: 2360.01, items: [LINE] } });
    expect(close.status, JSON.stringify(close.body)).toBe(201);
    const off = await h.call('/invoices/with-items', { token: owner.token, body: { ...SALE, invoice_number: 'R-4', total: 2400, items: [LINE] } });
    expectError(off, 400, /total/);
    const badLine = await h.call('/invoices/with-items', {
      token: owner.token, body: { ...SALE, invoice_number: 'R-5', items: [{ ...LINE, amount: 1 }] },
    });
    expectError(badLine, 400, /items\[0\]\.amount/);
    // nothing of the refused invoices was kept
    const kept = await h.call('/invoices?invoice_number__in=R-4,R-5', { token: owner.token });
    expect(kept.body.data).toEqual([]);
  });

  it('refuses a GST rate outside the legal slabs and a negative quantity', async () => {
    expectError(await h.call('/invoices/with-items', { token: owner.token, body: { ...SALE, items: [{ ...LINE, gst_rate: 7 }] } }), 400, /gst_rate/);
    expectError(await h.call('/invoices/with-items', { token: owner.token, body: { ...SALE, items: [{ ...LINE, qty: -1 }] } }), 400, /qty/);
  });

  it('derives status from amount_paid, ignoring the status the client sends', async () => {
    const res = await h.call('/invoices/with-items', {
      token: owner.token, body: { ...SALE, invoice_number: 'R-6', amount_paid: 1000, status: 'paid', items: [LINE] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.status).toBe('partial');
  });
});

describe('GET /v1/reports/:name', () => {
  it('summary and gst-summary count only the active company, in the spec shape', async () => {
    await h.call('/invoices/with-items', { token: other.token, body: { ...SALE, invoice_number: 'X-1', items: [LINE] } });
    const summary = await h.call('/reports/summary?from=2025-06-01&to=2025-06-30', { token: owner.token });
    expect(summary.status, JSON.stringify(summary.body)).toBe(200);
    expect(summary.body.data.period).toEqual({ from: '2025-06-01', to: '2025-06-30' });
    expect(Object.keys(summary.body.data).sort()).toEqual(
      ['expenses', 'grossProfit', 'paymentsIn', 'paymentsOut', 'period', 'purchaseReturns', 'purchases', 'saleReturns', 'sales'].sort(),
    );
    expect(summary.body.data.sales).toEqual({ count: 4, total: 2360 * 4, received: 1000 });

    const gst = await h.call('/reports/gst-summary?from=2025-06-01&to=2025-06-30', { token: owner.token });
    expect(gst.status).toBe(200);
    expect(gst.body.data.outputTax).toEqual({ taxable: 8000, cgst: 540, sgst: 540, igst: 360, total: 1440, invoices: 4 });
    expect(gst.body.data.creditNotes).toEqual({ taxable: 0, cgst: 0, sgst: 0, igst: 0, total: 0, invoices: 0 });
    expect(gst.body.data.netPayable).toBe(1440);
  });

  it('stock and outstanding answer for the company', async () => {
    expect((await h.call('/reports/stock?low_stock=true', { token: owner.token })).status).toBe(200);
    expect((await h.call('/reports/outstanding?type=customer', { token: owner.token })).status).toBe(200);
  });

  it('refuses unknown reports, bad parameters and anonymous callers', async () => {
    expectError(await h.call('/reports/profit-and-loss?from=2025-01-01&to=2025-12-31', { token: owner.token }), 404, /profit-and-loss/);
    expectError(await h.call('/reports/summary?to=2025-12-31', { token: owner.token }), 400, /from/);
    expectError(await h.call('/reports/summary?from=2025-13-01&to=2025-12-31', { token: owner.token }), 400, /from/);
    expectError(await h.call('/reports/summary?from=2025-01-01&to=2025-12-31'), 401);
    expectError(await h.call('/reports/summary?from=2025-01-01&to=2025-12-31', { token: owner.token, method: 'POST', body: {} }), 405);
  });
});

describe('contract', () => {
  it('OpenAPI lists every report with its parameters and documents the rule choices', async () => {
    const doc = (await h.call('/openapi.json')).body;
    for (const name of ['summary', 'gst-summary', 'stock', 'outstanding', 'gstr1']) expect(doc.paths).toHaveProperty([`/v1/reports/${name}`, 'get']);
    const params = doc.paths['/v1/reports/summary'].get.parameters;
    expect(params.map((p: { name: string; required: boolean }) => [p.name, p.required])).toEqual([['from', true], ['to', true]]);
    expect(doc.info.description).toMatch(/Negative stock is allowed unless/);
  });
});
