// Every resource of the registry through the API: list, create, get, patch, delete — or 405 for
// every write to a read-only one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSample, patchableField, resources, sampleBody, SINGLETONS } from './samples.ts';
import { expectError, startInvoicing, type InvoicingHarness, type Persona } from './support.ts';

let h: InvoicingHarness;
let owner: Persona;

beforeAll(async () => {
  h = await startInvoicing();
  owner = await h.owner('Resources Co');
});
afterAll(async () => h?.stop());

const as = () => ({ token: owner.token });

describe.each(resources.filter((r) => !r.readOnly).map((r) => [r.path, r] as const))('%s', (path, resource) => {
  it('create, get, list, patch, delete', async () => {
    if (SINGLETONS.has(path)) {
      // the company may already have its one row: remove it so create can be tested
      const existing = await h.call(`/${path}`, as());
      for (const row of existing.body.data) expect((await h.call(`/${path}/${row.id}`, { ...as(), method: 'DELETE' })).status).toBe(200);
    }
    const created = await h.call(`/${path}`, { ...as(), body: await sampleBody(h, owner, resource) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const row = created.body.data;
    expect(row).toMatchObject({ id: expect.any(String), company_id: owner.companyId, created_at: expect.any(String), updated_at: expect.any(String) });

    const got = await h.call(`/${path}/${row.id}`, as());
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(row);

    const listed = await h.call(`/${path}?id=${row.id}`, as());
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([row.id]);
    expect(listed.body.meta).toEqual({ count: 1, limit: 50, offset: 0, page: 1 });

    const field = patchableField(resource);
    if (field) {
      const patched = await h.call(`/${path}/${row.id}`, { ...as(), method: 'PATCH', body: { [field.name]: field.value } });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.data[field.name]).toEqual(field.value);
    }

    const deleted = await h.call(`/${path}/${row.id}`, { ...as(), method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(row.id);
    expectError(await h.call(`/${path}/${row.id}`, as()), 404);
    expectError(await h.call(`/${path}/${row.id}`, { ...as(), method: 'DELETE' }), 404);
    expectError(await h.call(`/${path}/${row.id}`, { ...as(), method: 'PATCH', body: {} }), 404);
  });
});

describe.each(resources.filter((r) => r.readOnly).map((r) => [r.path] as const))('%s (read-only)', (path) => {
  it('lists and refuses every write with 405', async () => {
    const list = await h.call(`/${path}`, as());
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ limit: 50, offset: 0, page: 1 });
    const id = list.body.data[0]?.id ?? '00000000-0000-4000-8000-000000000000';
    expectError(await h.call(`/${path}`, { ...as(), body: {} }), 405);
    expectError(await h.call(`/${path}`, { ...as(), body: [{}] }), 405);
    expectError(await h.call(`/${path}/${id}`, { ...as(), method: 'PATCH', body: {} }), 405);
    expectError(await h.call(`/${path}/${id}`, { ...as(), method: 'DELETE' }), 405);
  });
});

describe('engine rules', () => {
  it('bulk create returns rows in order, all or nothing', async () => {
    const ok = await h.call('/units', { ...as(), body: [{ name: 'Box', short_name: 'BOX' }, { name: 'Piece', short_name: 'PCS' }] });
    expect(ok.status).toBe(201);
    expect(ok.body.data.map((u: { short_name: string }) => u.short_name)).toEqual(['BOX', 'PCS']);
    const bad = await h.call('/units', { ...as(), body: [{ name: 'Kg', short_name: 'KGS' }, { name: 'Dup', short_name: 'BOX' }] });
    expectError(bad, 400, /already exists/);
    expect((await h.call('/units?short_name=KGS', as())).body.data).toEqual([]);
  });

  it('bulk create takes 1…500 rows', async () => {
    expectError(await h.call('/units', { ...as(), body: [] }), 400);
    const many = Array.from({ length: 501 }, (_, i) => ({ name: `u${i}`, short_name: `U${i}` }));
    expectError(await h.call('/units', { ...as(), body: many }), 400, /500/);
  });

  it('rejects company_id, unknown fields and bad types, naming the field', async () => {
    expectError(await h.call('/parties', { ...as(), body: { name: 'X', company_id: owner.companyId } }), 400, /company_id/);
    expectError(await h.call('/parties', { ...as(), body: { name: 'X', colour: 'red' } }), 400, /colour/);
    expectError(await h.call('/parties', { ...as(), body: { name: 'X', credit_limit: 'lots' } }), 400, /credit_limit/);
    expectError(await h.call('/parties', { ...as(), body: { name: 'X', is_active: 'yes' } }), 400, /is_active/);
    expectError(await h.call('/parties', { ...as(), body: {} }), 400, /name/);
    expectError(await h.call('/invoices', { ...as(), body: { party_name: 'X', type: 'gift' } }), 400, /type/);
    expectError(await h.call('/invoices', { ...as(), body: { party_name: 'X', type: 'sale', date: '2025-02-30' } }), 400, /date/);
    expectError(await h.call('/invoices', { ...as(), body: { party_name: 'X', type: 'sale', balance: 5 } }), 400, /balance/);
    expectError(await h.call('/parties', { ...as(), body: '{"name":' }), 400, /JSON/);
    expectError(await h.call('/parties', { ...as(), body: '[1]' }), 400);
  });

  it('PATCH may not change id, company_id or created_at', async () => {
    const party = await createSample(h, owner, resources.find((r) => r.path === 'parties')!);
    for (const field of ['id', 'company_id', 'created_at']) {
      expectError(await h.call(`/parties/${party.id}`, { ...as(), method: 'PATCH', body: { [field]: party[field] } }), 400, new RegExp(field));
    }
  });

  it('maps constraint violations to 400 in words, never the driver text', async () => {
    const res = await h.call('/payments', { ...as(), body: { party_id: '00000000-0000-4000-8000-000000000000', amount: 5 } });
    expectError(res, 400, /party_id/);
    expect(res.body.error.message).not.toMatch(/violates|constraint "|Key \(/);
  });

  it('malformed ids are 400, unknown ids 404, unknown resources 404', async () => {
    expectError(await h.call('/parties/not-a-uuid', as()), 400, /uuid/);
    expectError(await h.call('/parties/00000000-0000-4000-8000-000000000000', as()), 404);
    expectError(await h.call('/wizards', as()), 404, /wizards/);
    expectError(await h.call('/wizards/00000000-0000-4000-8000-000000000000', as()), 404);
  });

  it('invoice with items: one transaction, 201 with both; lines listed per invoice', async () => {
    const body = {
      invoice_number: 'INV-WI-1', date: '2025-03-01', party_name: 'Walk-in', type: 'sale', subtotal: 200, cgst: 18, sgst: 18, igst: 0, total: 236, amount_paid: 0, status: 'unpaid',
      items: [
        { item_name: 'A', hsn_code: '8471', unit: 'PCS', qty: 1, rate: 100, gst_rate: 18, gst_amount: 18, amount: 118 },
        { item_name: 'B', qty: 2, rate: 50, gst_rate: 18, gst_amount: 18, amount: 118 },
      ],
    };
    const created = await h.call('/invoices/with-items', { ...as(), body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const invoice = created.body.data;
    expect(invoice).toMatchObject({ invoice_number: 'INV-WI-1', items: [{ item_name: 'A' }, { item_name: 'B' }] });
    const lines = await h.call(`/invoices/${invoice.id}/items`, as());
    expect(lines.body.data.map((l: { id: string }) => l.id).sort()).toEqual(invoice.items.map((l: { id: string }) => l.id).sort());
    const filtered = await h.call(`/invoice-items?invoice_id=${invoice.id}`, as());
    expect(filtered.body.meta.count).toBe(2);
    // a bad line rolls the invoice back too
    const bad = await h.call('/invoices/with-items', { ...as(), body: { ...body, invoice_number: 'INV-WI-2', items: [{ item_name: 'A', qty: 'x' }] } });
    expectError(bad, 400, /items\[0\].*qty/);
    expect((await h.call('/invoices?invoice_number=INV-WI-2', as())).body.data).toEqual([]);
    expectError(await h.call('/invoices/with-items', { ...as(), body: { ...body, items: [{ item_name: 'A', invoice_id: invoice.id }] } }), 400, /invoice_id/);
    expectError(await h.call('/invoices/00000000-0000-4000-8000-000000000000/items', as()), 404);
    expectError(await h.call('/invoices/with-items', as()), 405);
  });

  it('document-items filter by document_id', async () => {
    const doc = await createSample(h, owner, resources.find((r) => r.path === 'documents')!);
    await h.call('/document-items', { ...as(), body: [{ document_id: doc.id, item_name: 'X' }, { document_id: doc.id, item_name: 'Y' }] });
    const res = await h.call(`/document-items?document_id=${doc.id}&sort=item_name`, as());
    expect(res.body.data.map((d: { item_name: string }) => d.item_name)).toEqual(['X', 'Y']);
  });
});
