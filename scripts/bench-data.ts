// `npm run bench:data`: 1,000,000 invoices with 3,000,000 lines (plus payments and expenses) in
// one company, for the report benchmarks. Into DATABASE_URL (already migrated) when set,
// otherwise into a fresh embedded Postgres that stays up until Ctrl-C.
//
// Fast because it is set-based: each chunk is ONE statement whose CTE prices the lines and
// inserts them together with their invoice headers (aggregated from the same CTE), with
// triggers off (session_replication_role = replica) — the per-row rules would cost hours at
// this size. What the triggers would have derived is computed here by the same formulas
// (line money, CGST/SGST vs IGST, round-off, status) and set-based afterwards (items.stock).
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import postgres, { type Sql } from 'postgres';
import { startEmbeddedPostgres } from '../packages/local/src/embedded-postgres.ts';
import { applyMigrations, applyPlatformSql } from '../packages/local/src/migrate.ts';
import { freePort } from '../packages/local/src/free-port.ts';

export interface BenchDataOptions {
  invoices?: number;
  linesPerInvoice?: number;
  chunk?: number;
  /** Dates are spread evenly from this day over `days` days. */
  firstDate?: string;
  days?: number;
  log?: (line: string) => void;
}

function progress(done: number, total: number, started: number): string {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const secs = (performance.now() - started) / 1000;
  return `\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${String(Math.round((done / total) * 100)).padStart(3)}%  ` +
    `${done.toLocaleString('en')}/${total.toLocaleString('en')} invoices  ${secs.toFixed(1)} s`;
}

/** Fills `companyId` (which must exist, with its business profile) with generated rows. */
export async function generateBenchData(sql: Sql, companyId: string, opts: BenchDataOptions = {}): Promise<void> {
  const total = opts.invoices ?? 1_000_000;
  const perInvoice = opts.linesPerInvoice ?? 3;
  const chunk = opts.chunk ?? 50_000;
  const firstDate = opts.firstDate ?? '2024-04-01';
  const days = opts.days ?? 730;
  const write = opts.log ?? ((s: string) => process.stdout.write(s));

  await sql`update invoicing.business_profile set state_code = '27', state = 'Maharashtra', round_off_enabled = true
            where company_id = ${companyId}`;
  // masters: 1,000 parties (odd ones out of state → IGST), 100 items across the GST slabs
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`insert into invoicing.parties (id, company_id, name, type, state_code, gstin)
             select md5('party' || g)::uuid, ${companyId}, 'Party ' || g, (array['customer','supplier','both'])[1 + g % 3],
                    case when g % 2 = 0 then '27' else '29' end,
                    case when g % 4 = 0 then (case when g % 2 = 0 then '27' else '29' end) || 'AABCA' || lpad((g % 10000)::text, 4, '0') || 'C1Z5' end
             from generate_series(0, 999) g`;
    await tx`insert into invoicing.items (id, company_id, name, hsn_code, gst_rate, sale_price, purchase_price, opening_stock, stock, min_stock)
             select md5('item' || g)::uuid, ${companyId}, 'Item ' || g, (8400 + g)::text, (array[0, 5, 12, 18, 28])[1 + g % 5],
                    10 + g, 7 + g, 100000, 100000, 50
             from generate_series(0, 99) g`;
  });

  const started = performance.now();
  write(progress(0, total, started));
  for (let from = 1; from <= total; from += chunk) {
    const to = Math.min(total, from + chunk - 1);
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      // g = invoice number; 72% sales, 20% purchases, 4% of each return; every 3rd sale fully paid,
      // every 3rd+1 half paid. Lines: qty 1–5, rate by item, 10% discount on every 5th line.
      await tx`
        with inv as (
          select g, md5('inv' || g)::uuid as id,
                 case when g % 25 = 0 then 'sale_return' when g % 25 = 1 then 'purchase_return'
                      when g % 5 = 2 then 'purchase' else 'sale' end as type,
                 ${firstDate}::date + (g % ${days}) as date,
                 g % 1000 as party_no, (g % 1000) % 2 = 1 as inter
          from generate_series(${from}::int, ${to}::int) g
        ), line as (
          select inv.id as invoice_id, inv.g, n, inv.inter, md5('item' || ((inv.g * 7 + n * 13) % 100))::uuid as item_id,
                 'Item ' || ((inv.g * 7 + n * 13) % 100) as item_name, (8400 + (inv.g * 7 + n * 13) % 100)::text as hsn,
                 (1 + (inv.g + n) % 5)::numeric as qty, (10 + (inv.g * 7 + n * 13) % 100)::numeric(14,2) as rate,
                 (array[0, 5, 12, 18, 28])[1 + ((inv.g * 7 + n * 13) % 100) % 5]::numeric as gst_rate,
                 case when (inv.g + n) % 5 = 0 then 10 else 0 end::numeric as discount_pct
          from inv cross join generate_series(1, ${perInvoice}::int) n
        ), priced as (
          select l.*, m.*
          from line l cross join lateral app.invoicing_price_line(l.qty, l.rate, l.discount_pct, 0, l.gst_rate, 0, false, l.inter) m
        ), lines_in as (
          insert into invoicing.invoice_items (company_id, invoice_id, item_id, item_name, hsn_code, unit, qty, rate,
            discount_pct, discount_amount, taxable_value, gst_rate, cgst, sgst, igst, cess_amount, gst_amount, amount,
            base_qty, sort_order)
          select ${companyId}, invoice_id, item_id, item_name, hsn, 'PCS', qty, rate, discount_pct, discount_amount,
                 taxable_value, gst_rate, cgst, sgst, igst, cess_amount, gst_amount, amount, qty, n
          from priced
        ), head as (
          select invoice_id, sum(taxable_value) as subtotal, sum(discount_amount) as discount, sum(cgst) as cgst,
                 sum(sgst) as sgst, sum(igst) as igst, sum(taxable_value + cgst + sgst + igst) as pre
          from priced group by invoice_id
        )
        insert into invoicing.invoices (id, company_id, type, status, invoice_number, date, due_date, party_id, party_name,
          place_of_supply, original_invoice_id, subtotal, discount_amount, cgst, sgst, igst, round_off, total, amount_paid)
        select inv.id, ${companyId}, inv.type,
               app.invoicing_derive_status(round(h.pre), paid.amount), 'B' || inv.g, inv.date, inv.date + 15,
               md5('party' || inv.party_no)::uuid, 'Party ' || inv.party_no, case when inv.inter then '29' else '27' end,
               case when inv.type like '%return' then md5('inv' || (inv.g - 2))::uuid end,
               h.subtotal, h.discount, h.cgst, h.sgst, h.igst, round(h.pre) - h.pre, round(h.pre), paid.amount
        from inv join head h on h.invoice_id = inv.id
        cross join lateral (select case inv.g % 3 when 0 then round(h.pre) when 1 then round(round(h.pre) / 2, 2) else 0 end as amount) paid`;
      // the receipts and payments behind amount_paid, one per paid invoice, fully allocated
      await tx`
        insert into invoicing.payments (company_id, type, payment_number, date, party_id, party_name, amount, mode,
          invoice_id, allocations, unallocated_amount)
        select ${companyId}, case when i.type in ('sale', 'purchase_return') then 'in' else 'out' end, 'BP' || i.invoice_number,
               i.date, i.party_id, i.party_name, i.amount_paid, 'bank', i.id,
               jsonb_build_array(jsonb_build_object('invoice_id', i.id, 'amount', i.amount_paid)), 0
        from generate_series(${from}::int, ${to}::int) g
        join invoicing.invoices i on i.company_id = ${companyId} and i.id = md5('inv' || g)::uuid
        where i.amount_paid > 0`;
    });
    write(progress(to, total, started));
  }
  write('\n');

  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`insert into invoicing.expenses (company_id, expense_number, date, category, amount, gst_rate, cgst, sgst, gst_amount, total, itc_eligible, amount_paid, status)
             select ${companyId}, 'BE' || g, ${firstDate}::date + (g % ${days}), 'Rent', 1000 + g % 500, 18,
                    round((1000 + g % 500) * 0.09, 2), round((1000 + g % 500) * 0.09, 2), round((1000 + g % 500) * 0.18, 2),
                    round((1000 + g % 500) * 1.18, 2), true, 0, 'unpaid'
             from generate_series(1, 10000) g`;
    // what the stock triggers would have done, set-based
    await tx`update invoicing.items it set stock = it.opening_stock + coalesce(m.moved, 0)
             from (select l.item_id, sum(l.base_qty * case i.type when 'sale' then -1 when 'purchase_return' then -1 else 1 end) as moved
                   from invoicing.invoice_items l join invoicing.invoices i on i.company_id = l.company_id and i.id = l.invoice_id
                   where l.company_id = ${companyId} group by l.item_id) m
             where it.company_id = ${companyId} and it.id = m.item_id`;
  });
  write(`loaded in ${((performance.now() - started) / 1000).toFixed(1)} s; vacuum analyze…\n`);
  // the visibility map makes the report indexes' scans index-only
  await sql`vacuum (analyze) invoicing.invoices, invoicing.invoice_items, invoicing.payments, invoicing.expenses, invoicing.items, invoicing.parties`;
}

/** A company owned by a bench user (auth.users row made directly), for DATABASE_URL runs. */
async function benchCompany(sql: Sql): Promise<string> {
  const [user] = await sql`insert into auth.users (email) values (${`bench-data-${Date.now()}@example.com`}) returning id`;
  return sql.begin(async (tx) => {
    await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: user.id, role: 'authenticated' })}, true)`;
    const [c] = await tx`select app.invoicing_create_company('Bench Data Co') as id`;
    return c.id as string;
  });
}

async function main(): Promise<void> {
  let url = process.env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerbase-bench-data-'));
    chmodSync(dir, 0o755);
    const pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort() });
    url = pg.url();
    stop = () => pg.stop();
    const m = postgres(url, { onnotice: () => {}, max: 1 });
    await applyPlatformSql(m);
    await applyMigrations(m);
    await m.end();
  }
  const sql = postgres(url, { onnotice: () => {}, max: 1 });
  const companyId = await benchCompany(sql);
  await generateBenchData(sql, companyId, { invoices: Number(process.env.BENCH_INVOICES ?? 1_000_000) });
  await sql.end();
  console.log(`company ${companyId} in ${url}`);
  if (stop) {
    console.log('embedded Postgres is up; Ctrl-C stops it');
    process.on('SIGINT', () => void stop!().then(() => process.exit(0)));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
