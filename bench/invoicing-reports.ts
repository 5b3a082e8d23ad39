// Reports over a big company: summary and gst-summary for a whole financial year on 1,000,000
// invoices / 3,000,000 lines (scripts/bench-data.ts; dates over two years, so the year holds
// half of them). p50 through the gateway (apikey, JWT, RLS session, parameter validation,
// report function) against the bare SQL aggregate (same statement body, company written out, no
// RLS, no HTTP) in the same run. Targets: ratio ≤ 1.3×, p50 < 1 s.
import postgres from 'postgres';
import { generateBenchData } from '../scripts/bench-data.ts';
import { fmt, startBenchStack } from './_support.ts';

const INVOICES = Number(process.env.BENCH_INVOICES ?? 1_000_000);
const FROM = '2024-04-01';
const TO = '2025-03-31';
const RUNS = 21;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The functions' bodies with the company written out: what the database does, and nothing else. */
const BARE: Record<string, string> = {
  summary: `
    select
      count(*) filter (where type = 'sale'), sum(total) filter (where type = 'sale'), sum(amount_paid) filter (where type = 'sale'),
      sum(subtotal) filter (where type = 'sale'), count(*) filter (where type = 'purchase'), sum(total) filter (where type = 'purchase'),
      sum(amount_paid) filter (where type = 'purchase'), sum(subtotal) filter (where type = 'purchase'),
      count(*) filter (where type = 'sale_return'), sum(total) filter (where type = 'sale_return'), sum(subtotal) filter (where type = 'sale_return'),
      count(*) filter (where type = 'purchase_return'), sum(total) filter (where type = 'purchase_return'), sum(subtotal) filter (where type = 'purchase_return'),
      (select sum(amount) filter (where type = 'in') from invoicing.payments where company_id = $1 and date between $2 and $3),
      (select sum(amount) filter (where type = 'out') from invoicing.payments where company_id = $1 and date between $2 and $3),
      (select sum(total) from invoicing.expenses where company_id = $1 and date between $2 and $3)
    from invoicing.invoices where company_id = $1 and date between $2 and $3`,
  'gst-summary': `
    select type, count(*), sum(subtotal), sum(cgst), sum(sgst), sum(igst)
    from invoicing.invoices where company_id = $1 and date between $2 and $3 group by type`,
};

export async function run(): Promise<void> {
  const stack = await startBenchStack();
  const admin = postgres(stack.databaseUrl, { onnotice: () => {}, max: 1 });
  const bare = postgres(stack.databaseUrl, { onnotice: () => {}, max: 1, prepare: false });
  try {
    const { token, userId } = await stack.signUp('bench-reports@example.com');
    const headers = { apikey: stack.keys.publishableKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const company = await (await fetch(`${stack.url}/functions/v1/invoicing/v1/companies`, { method: 'POST', headers, body: JSON.stringify({ name: 'Reports Co' }) })).json();
    const companyId: string = company.data.id;
    console.log(`generating ${INVOICES.toLocaleString('en')} invoices…`);
    await generateBenchData(admin, companyId, { invoices: INVOICES });

    for (const name of ['summary', 'gst-summary']) {
      const url = `${stack.url}/functions/v1/invoicing/v1/reports/${name}?from=${FROM}&to=${TO}`;
      const first = await fetch(url, { headers });
      const body = await first.json();
      if (first.status !== 200) throw new Error(`${name}: ${first.status} ${JSON.stringify(body)}`);
      // interleaved, so background work (autovacuum after the load, other processes) hits both alike
      const gwOnce = async () => {
        const res = await fetch(url, { headers });
        if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
        await res.arrayBuffer();
      };
      const bareOnce = () => bare.unsafe(BARE[name], [companyId, FROM, TO]);
      // the report function as the user (RLS session, no HTTP): splits SQL cost from HTTP/auth cost
      const fn = name === 'summary' ? 'report_summary' : 'report_gst_summary';
      const sqlOnce = () => bare.begin(async (tx) => {
        await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify({ sub: userId, role: 'authenticated' })}, true), set_config('app.company_id', ${companyId}, true)`;
        await tx.unsafe(`select invoicing.${fn}($1, $2) as data`, [FROM, TO]);
      });
      const gwTimes: number[] = [];
      const bareTimes: number[] = [];
      const sqlTimes: number[] = [];
      for (let i = 0; i < RUNS + 3; i++) {
        const t0 = performance.now();
        await gwOnce();
        const t1 = performance.now();
        await bareOnce();
        const t2 = performance.now();
        await sqlOnce();
        const t3 = performance.now();
        if (i >= 3) { gwTimes.push(t1 - t0); bareTimes.push(t2 - t1); sqlTimes.push(t3 - t2); }  // 3 warm-up rounds
      }
      const gw = median(gwTimes);
      const base = median(bareTimes);
      const viaSql = median(sqlTimes);
      const covered = name === 'summary'
        ? body.data.sales.count + body.data.purchases.count + body.data.saleReturns.count + body.data.purchaseReturns.count
        : body.data.outputTax.invoices + body.data.inputTax.invoices + body.data.creditNotes.invoices + body.data.debitNotes.invoices;
      console.log(`${name.padEnd(12)} ${covered.toLocaleString('en')} invoices in ${FROM}…${TO}: ` +
        `gateway p50 ${fmt(gw)} ms, bare SQL p50 ${fmt(base)} ms, ratio ${fmt(gw / base, 2)}× (target ≤ 1.3×, < 1000 ms); ` +
        `report function as the user without HTTP p50 ${fmt(viaSql)} ms`);
    }
  } finally {
    await bare.end({ timeout: 1 });
    await admin.end({ timeout: 1 });
    await stack.close();
  }
}
