// Invoicing list throughput: GET /v1/invoices?status=unpaid&sort=-date&limit=50 on 100,000
// invoices of one company, at c=50, through the gateway (apikey, ES256 JWT, RLS session, query
// parser) vs a bare node:http + postgres.js server running the equivalent SQL with no auth, in
// the same run. Also: POST of 500 invoice-items in one bulk request, p50.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { fmt, loadTest, medianMs, startBenchStack } from './_support.ts';

const INVOICES = 100_000;
const QUERY = '/invoices?status=unpaid&sort=-date&limit=50';

export async function run(): Promise<void> {
  const stack = await startBenchStack();
  const admin = postgres(stack.databaseUrl, { onnotice: () => {}, max: 2 });
  // the baseline gets a pool as large as the functions' (stack: 20)
  const bare = postgres(stack.databaseUrl, { onnotice: () => {}, max: 20, prepare: false });
  const server = createServer();
  try {
    const { token } = await stack.signUp('bench-invoicing@example.com');
    const headers = { apikey: stack.keys.publishableKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const api = `${stack.url}/functions/v1/invoicing/v1`;
    const company = await (await fetch(`${api}/companies`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench Co' }) })).json();
    const companyId: string = company.data.id;

    // Bulk load as superuser with triggers off (activity log per row would only slow the setup).
    const t0 = performance.now();
    await admin.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into invoicing.invoices (company_id, type, status, invoice_number, date, party_name, subtotal, total, amount_paid)
        select ${companyId}, 'sale', (array['unpaid','partial','paid'])[1 + g % 3], 'INV-' || g,
               date '2023-01-01' + (g % 1000), 'Party ' || (g % 500), 100 + g % 900, 118 + g % 900,
               case g % 3 when 0 then 0 when 1 then 50 else 118 + g % 900 end
        from generate_series(1, ${INVOICES}) g`;
    });
    await admin`analyze invoicing.invoices`;
    console.log(`loaded ${INVOICES} invoices in ${fmt((performance.now() - t0) / 1000)} s`);

    // The baseline: the same two statements the engine sends (page as JSON text + count), the
    // tenant condition written out instead of enforced by RLS, no auth, no parsing.
    server.on('request', async (_req, res) => {
      const [[page], [count]] = await Promise.all([
        bare`select coalesce(json_agg(t), '[]')::text as data from (
               select * from invoicing.invoices where company_id = ${companyId} and status = 'unpaid'
               order by date desc, id asc limit 50 offset 0) t`,
        bare`select count(*)::int as count from invoicing.invoices where company_id = ${companyId} and status = 'unpaid'`,
      ]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"data":${page.data},"meta":${JSON.stringify({ count: count.count, limit: 50, offset: 0, page: 1 })}}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const bareUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${QUERY}`;

    const check = await (await fetch(`${api}${QUERY}`, { headers })).json();
    if (check.data?.length !== 50 || !(check.meta?.count > 0)) {
      throw new Error(`unexpected API answer: ${JSON.stringify(check.meta ?? check)}`);
    }
    await loadTest({ url: bareUrl, seconds: 2 });
    await loadTest({ url: `${api}${QUERY}`, headers, seconds: 2 });
    const base = await loadTest({ url: bareUrl });
    const gw = await loadTest({ url: `${api}${QUERY}`, headers });
    if (gw.non2xx || gw.errors) throw new Error(`API run had ${gw.non2xx} non-2xx and ${gw.errors} errors`);
    console.log(`bare node:http + SQL     ${fmt(base.rps, 0)} req/s  p50 ${base.p50} ms`);
    console.log(`GET /v1${QUERY} via gateway ${fmt(gw.rps, 0)} req/s  p50 ${gw.p50} ms  (apikey + JWT + RLS + parser)`);
    console.log(`ratio api/bare = ${fmt((gw.rps / base.rps) * 100)}%  (target ≥ 70%)`);

    // Bulk create: 500 lines of one invoice per request.
    const invoice = await (await fetch(`${api}/invoices`, { method: 'POST', headers, body: JSON.stringify({ party_name: 'Bulk', type: 'sale' }) })).json();
    const lines = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({
      invoice_id: invoice.data.id, item_name: `Line ${i}`, hsn_code: '8471', unit: 'PCS', qty: 1 + (i % 5), rate: 99.5, gst_rate: 18, gst_amount: 17.91, amount: 117.41,
    })));
    const p50 = await medianMs(15, async () => {
      const res = await fetch(`${api}/invoice-items`, { method: 'POST', headers, body: lines });
      if (res.status !== 201) throw new Error(`bulk POST: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    });
    console.log(`POST /v1/invoice-items, 500 rows in one request: p50 ${fmt(p50)} ms`);
  } finally {
    server.close();
    await bare.end({ timeout: 1 });
    await admin.end({ timeout: 1 });
    await stack.close();
  }
}
