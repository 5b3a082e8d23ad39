-- Invoicing reports: one SQL aggregate each over the active company, returning the response's
-- `data` as jsonb. Security invoker, so RLS applies on top of the explicit company filter (the
-- filter is what lets the planner use the covering indexes below).
--
-- Conventions (documented in the API description):
-- * period: from/to inclusive, on each record's `date`.
-- * summary: sales/purchases {count, total = Σtotal, received|paid = Σamount_paid};
--   saleReturns/purchaseReturns {count, total}; paymentsIn/Out = Σpayments.amount;
--   expenses = Σexpenses.total (incl. GST); grossProfit = (Σsale.subtotal − Σsale_return.subtotal)
--   − (Σpurchase.subtotal − Σpurchase_return.subtotal): an ex-GST trading margin, not COGS.
-- * gst-summary: outputTax = sales, inputTax = purchases, creditNotes = sale returns,
--   debitNotes = purchase returns; each {taxable = Σsubtotal, cgst, sgst, igst,
--   total = cgst + sgst + igst, invoices = count}. netPayable = (outputTax.total −
--   creditNotes.total) − (inputTax.total − debitNotes.total); expenses' ITC is NOT deducted
--   (so netPayable follows from the four blocks shown); negative = credit carried forward.
-- * Money is a JSON number with at most 2 decimals; counts are integers.
--
-- summary and gst-summary are PL/pgSQL `RETURN QUERY` functions returning one jsonb row: a SQL
-- function runs its final SELECT with a row limit, which keeps Postgres from launching parallel
-- workers (auto_explain: "Workers Launched: 0"); RETURN QUERY runs it unlimited, so a year of
-- invoices is scanned by the leader and its workers — as the same SQL sent directly would be.

-- covering indexes: the period aggregates read only these (index-only scans)
create index invoices_company_date_totals_idx on invoicing.invoices (company_id, date)
  include (type, subtotal, cgst, sgst, igst, total, amount_paid);
create index payments_company_date_amount_idx on invoicing.payments (company_id, date) include (type, amount);
create index expenses_company_date_total_idx on invoicing.expenses (company_id, date) include (total);

create or replace function invoicing.report_summary(p_from date, p_to date) returns setof jsonb
language plpgsql stable security invoker set search_path = '' as $$
begin
  return query
    with company as (select app.active_company_id() as id),
    inv as (
      select
        count(*) filter (where i.type = 'sale') as s_n,
        coalesce(sum(i.total) filter (where i.type = 'sale'), 0) as s_total,
        coalesce(sum(i.amount_paid) filter (where i.type = 'sale'), 0) as s_paid,
        coalesce(sum(i.subtotal) filter (where i.type = 'sale'), 0) as s_sub,
        count(*) filter (where i.type = 'purchase') as p_n,
        coalesce(sum(i.total) filter (where i.type = 'purchase'), 0) as p_total,
        coalesce(sum(i.amount_paid) filter (where i.type = 'purchase'), 0) as p_paid,
        coalesce(sum(i.subtotal) filter (where i.type = 'purchase'), 0) as p_sub,
        count(*) filter (where i.type = 'sale_return') as sr_n,
        coalesce(sum(i.total) filter (where i.type = 'sale_return'), 0) as sr_total,
        coalesce(sum(i.subtotal) filter (where i.type = 'sale_return'), 0) as sr_sub,
        count(*) filter (where i.type = 'purchase_return') as pr_n,
        coalesce(sum(i.total) filter (where i.type = 'purchase_return'), 0) as pr_total,
        coalesce(sum(i.subtotal) filter (where i.type = 'purchase_return'), 0) as pr_sub
      from invoicing.invoices i
      where i.company_id = (select id from company) and i.date between p_from and p_to
    ),
    pay as (
      select coalesce(sum(y.amount) filter (where y.type = 'in'), 0) as pay_in,
             coalesce(sum(y.amount) filter (where y.type = 'out'), 0) as pay_out
      from invoicing.payments y
      where y.company_id = (select id from company) and y.date between p_from and p_to
    ),
    exp as (
      select coalesce(sum(e.total), 0) as total from invoicing.expenses e
      where e.company_id = (select id from company) and e.date between p_from and p_to
    )
    select jsonb_build_object(
      'period', jsonb_build_object('from', p_from, 'to', p_to),
      'sales', jsonb_build_object('count', inv.s_n, 'total', inv.s_total, 'received', inv.s_paid),
      'purchases', jsonb_build_object('count', inv.p_n, 'total', inv.p_total, 'paid', inv.p_paid),
      'saleReturns', jsonb_build_object('count', inv.sr_n, 'total', inv.sr_total),
      'purchaseReturns', jsonb_build_object('count', inv.pr_n, 'total', inv.pr_total),
      'paymentsIn', pay.pay_in,
      'paymentsOut', pay.pay_out,
      'expenses', exp.total,
      'grossProfit', (inv.s_sub - inv.sr_sub) - (inv.p_sub - inv.pr_sub))
    from inv, pay, exp;
end $$;

create or replace function invoicing.report_gst_summary(p_from date, p_to date) returns setof jsonb
language plpgsql stable security invoker set search_path = '' as $$
begin
  return query
    with t as (
      select i.type, count(*) as n, sum(i.subtotal) as taxable, sum(i.cgst) as cgst,
             sum(i.sgst) as sgst, sum(i.igst) as igst
      from invoicing.invoices i
      where i.company_id = (select app.active_company_id()) and i.date between p_from and p_to
      group by i.type
    ),
    b as (
      select k.type,
        jsonb_build_object('taxable', coalesce(t.taxable, 0), 'cgst', coalesce(t.cgst, 0),
          'sgst', coalesce(t.sgst, 0), 'igst', coalesce(t.igst, 0),
          'total', coalesce(t.cgst + t.sgst + t.igst, 0), 'invoices', coalesce(t.n, 0)) as block,
        coalesce(t.cgst + t.sgst + t.igst, 0) as tax
      from (values ('sale'), ('purchase'), ('sale_return'), ('purchase_return')) k (type)
      left join t on t.type = k.type
    )
    select jsonb_build_object(
      'period', jsonb_build_object('from', p_from, 'to', p_to),
      'outputTax', (select block from b where type = 'sale'),
      'inputTax', (select block from b where type = 'purchase'),
      'creditNotes', (select block from b where type = 'sale_return'),
      'debitNotes', (select block from b where type = 'purchase_return'),
      'netPayable', ((select tax from b where type = 'sale') - (select tax from b where type = 'sale_return'))
                  - ((select tax from b where type = 'purchase') - (select tax from b where type = 'purchase_return')));
end $$;

-- Item-wise stock: value = stock × purchase_price; low = min_stock > 0 and stock ≤ min_stock.
-- search: case-insensitive partial match on name, item_code, hsn_code, barcode (% and _ literal).
create or replace function invoicing.report_stock(p_search text default null, p_low_stock boolean default null)
returns jsonb
language sql stable security invoker set search_path = '' as $$
  with rows as (
    select i.id, i.name, i.item_code, i.hsn_code, i.item_type, i.primary_unit as unit, i.stock,
           i.min_stock, i.purchase_price, i.sale_price, round(i.stock * i.purchase_price, 2) as value,
           (i.min_stock > 0 and i.stock <= i.min_stock) as low_stock
    from invoicing.items i
    where i.company_id = (select app.active_company_id()) and i.track_stock
      and (p_search is null or p_search = '' or (
        select bool_or(c ilike '%' || replace(replace(replace(p_search, '\', '\\'), '%', '\%'), '_', '\_') || '%')
        from unnest(array[i.name, i.item_code, i.hsn_code, i.barcode]) c))
  )
  select jsonb_build_object(
    'items', coalesce((select jsonb_agg(to_jsonb(r) order by r.name, r.id) from rows r
                       where p_low_stock is null or r.low_stock = p_low_stock), '[]'),
    'totals', (select jsonb_build_object('items', count(*), 'stock_value', coalesce(sum(r.value), 0),
                                         'low_stock_items', count(*) filter (where r.low_stock))
               from rows r where p_low_stock is null or r.low_stock = p_low_stock))
$$;

-- Party-wise receivables and payables (invoicing.party_balances): balance > 0 = receivable,
-- < 0 = payable. type customer → parties of type customer or both; supplier → supplier or both.
-- Parties with a zero balance are left out.
create or replace function invoicing.report_outstanding(p_type text default null) returns jsonb
language sql stable security invoker set search_path = '' as $$
  with rows as (
    select p.id, p.name, p.type, p.phone, p.gstin, p.credit_limit, b.balance,
           greatest(b.balance, 0) as receivable, greatest(-b.balance, 0) as payable
    from invoicing.party_balances() b
    join invoicing.parties p on p.company_id = (select app.active_company_id()) and p.id = b.party_id
    where b.balance <> 0
      and (p_type is null or p.type = p_type or p.type = 'both')
  )
  select jsonb_build_object(
    'type', p_type,
    'parties', coalesce((select jsonb_agg(to_jsonb(r) order by abs(r.balance) desc, r.name, r.id) from rows r), '[]'),
    'totals', (select jsonb_build_object('parties', count(*), 'receivable', coalesce(sum(r.receivable), 0),
                                         'payable', coalesce(sum(r.payable), 0),
                                         'net', coalesce(sum(r.balance), 0)) from rows r))
$$;

grant execute on function invoicing.report_summary(date, date), invoicing.report_gst_summary(date, date),
  invoicing.report_stock(text, boolean), invoicing.report_outstanding(text) to authenticated, service_role;
revoke execute on function invoicing.report_summary(date, date), invoicing.report_gst_summary(date, date),
  invoicing.report_stock(text, boolean), invoicing.report_outstanding(text) from anon, public;
