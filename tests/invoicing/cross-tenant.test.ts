// The cross-tenant matrix over HTTP: a member of company A, for every resource, reading,
// listing, filtering, patching and deleting company B's rows → 403 or 404, never a row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSample, resources, SINGLETONS } from './samples.ts';
import { startInvoicing, type InvoicingHarness, type Persona } from './support.ts';

let h: InvoicingHarness;
let a: Persona;
let b: Persona;
/** One row of company B per resource (read-only ones: whatever B's triggers wrote). */
const rowsOfB = new Map<string, Record<string, any>>();

beforeAll(async () => {
  h = await startInvoicing();
  a = await h.owner('Tenant A');
  b = await h.owner('Tenant B');
  for (const resource of resources) {
    if (!resource.readOnly && !SINGLETONS.has(resource.path)) {
      rowsOfB.set(resource.path, await createSample(h, b, resource));
    }
  }
  for (const resource of resources) {
    if (rowsOfB.has(resource.path)) continue;
    const [row] = (await h.call(`/${resource.path}?limit=1`, { token: b.token })).body.data;
    if (row) rowsOfB.set(resource.path, row);
  }
});
afterAll(async () => h?.stop());

const denied = (status: number, body: unknown) => {
  expect([403, 404], JSON.stringify(body)).toContain(status);
  expect(body).toEqual({ error: { message: expect.any(String), status } });
};

describe.each(resources.map((r) => [r.path, r] as const))('%s', (path, resource) => {
  it("A never sees or changes B's rows", async () => {
    const row = rowsOfB.get(path);
    if (!row) return; // B has no row of a read-only resource (e.g. webhook-deliveries): nothing to leak
    expect(row.company_id).toBe(b.companyId);

    denied(...(Object.values(await h.call(`/${path}/${row.id}`, { token: a.token })).slice(0, 2) as [number, unknown]));
    const byId = await h.call(`/${path}?id=${row.id}`, { token: a.token });
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual([]);
    const byCompany = await h.call(`/${path}?company_id=${b.companyId}`, { token: a.token });
    expect(byCompany.body.data).toEqual([]);
    const all = await h.call(`/${path}?limit=500`, { token: a.token });
    expect(all.body.data.every((r: { company_id: string }) => r.company_id === a.companyId)).toBe(true);
    // B's company id in the header is not A's to use
    denied(...(Object.values(await h.call(`/${path}`, { token: a.token, company: b.companyId })).slice(0, 2) as [number, unknown]));

    if (!resource.readOnly) {
      const patch = await h.call(`/${path}/${row.id}`, { token: a.token, method: 'PATCH', body: {} });
      denied(patch.status, patch.body);
      const field = resource.columns.find((c) => c.name === 'notes' || c.name === 'name');
      if (field) {
        const p2 = await h.call(`/${path}/${row.id}`, { token: a.token, method: 'PATCH', body: { [field.name]: 'pwned' } });
        denied(p2.status, p2.body);
      }
      const del = await h.call(`/${path}/${row.id}`, { token: a.token, method: 'DELETE' });
      denied(del.status, del.body);
      // and B's row is untouched
      const still = await h.call(`/${path}/${row.id}`, { token: b.token });
      expect(still.status).toBe(200);
      expect(still.body.data).toEqual(row);
    }
  });
});

it("A cannot attach its rows to B's parent rows", async () => {
  const invoiceOfB = rowsOfB.get('invoices')!;
  const res = await h.call('/invoice-items', { token: a.token, body: { invoice_id: invoiceOfB.id, item_name: 'sneaky' } });
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect((await h.call(`/invoices/${invoiceOfB.id}/items`, { token: a.token })).status).toBe(404);
});
