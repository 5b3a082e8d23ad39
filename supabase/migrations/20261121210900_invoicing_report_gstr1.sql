-- GET /v1/reports/gstr1?from&to: the outward-supply sections of GSTR-1 in the GST portal's JSON
-- shape, built from sales, sale returns and their lines (beyond the spec; the spec's position is
-- that statutory returns are reproduced from these rows — this is that reproduction).
--
-- * b2b: sales with a party GSTIN, per ctin → inv[{inum, idt (dd-mm-yyyy), val, pos, rchrg,
--   inv_typ 'R' (or 'SEWP'/'SEWOP' for SEZ parties: with/without IGST), itms[{num, itm_det{rt,
--   txval, iamt, camt, samt, csamt}}]}], one itm per tax rate.
-- * b2cl: unregistered inter-state sales above ₹1 lakh (₹2.5 lakh for invoices before
--   1-Aug-2024), per pos → inv[…].
-- * b2cs: every other unregistered sale, by supply type (INTER/INTRA), pos and rate (typ 'OE').
-- * cdnr: sale returns (credit notes, ntty 'C') to registered parties, per ctin → nt[…].
-- * hsn: per HSN + unit + rate: qty and values, sales minus sale returns.
-- pos defaults to the business's own state when the invoice has none (an intra-state sale).
create or replace function invoicing.report_gstr1(p_from date, p_to date) returns jsonb
language sql stable security invoker set search_path = ''
-- The period's invoices are joined to their lines several times over CTE results; with stale
-- statistics or a cached generic plan (PG 18 caches SQL-function plans) the planner picks nested
-- loops over those CTE scans that take tens of seconds on a few thousand invoices. A whole-period
-- report is a hash-join workload: plan it with the actual dates and without nested loops.
set plan_cache_mode = force_custom_plan
set enable_nestloop = off as $$
  with company as (select app.active_company_id() as id),
  biz as (select b.gstin, b.state_code from invoicing.business_profile b where b.company_id = (select id from company)),
  inv as (
    select i.id, i.type, i.invoice_number, i.date, i.total, i.party_gstin, i.is_reverse_charge,
      coalesce(i.place_of_supply, (select state_code from biz)) as pos,
      (i.igst > 0 or coalesce(i.place_of_supply <> (select state_code from biz), false)) as inter,
      p.gst_type
    from invoicing.invoices i
    left join invoicing.parties p on p.company_id = i.company_id and p.id = i.party_id
    where i.company_id = (select id from company) and i.date between p_from and p_to
      and i.type in ('sale', 'sale_return')
  ),
  rates as (  -- one row per invoice and tax rate
    select l.invoice_id, l.gst_rate as rt, sum(l.taxable_value) as txval, sum(l.igst) as iamt,
           sum(l.cgst) as camt, sum(l.sgst) as samt, sum(l.cess_amount) as csamt
    from invoicing.invoice_items l join inv on inv.id = l.invoice_id
    where l.company_id = (select id from company)
    group by l.invoice_id, l.gst_rate
  ),
  itms as (
    select r.invoice_id, jsonb_agg(jsonb_build_object('num', r.n, 'itm_det', jsonb_build_object(
      'rt', r.rt, 'txval', r.txval, 'iamt', r.iamt, 'camt', r.camt, 'samt', r.samt, 'csamt', r.csamt))
      order by r.rt) as itms
    from (select *, row_number() over (partition by invoice_id order by rt) as n from rates) r
    group by r.invoice_id
  ),
  doc as (
    select inv.*, to_char(inv.date, 'DD-MM-YYYY') as idt, coalesce(itms.itms, '[]') as itms,
      case when inv.gst_type = 'sez' then case when inv.inter then 'SEWP' else 'SEWOP' end else 'R' end as inv_typ,
      case when inv.is_reverse_charge then 'Y' else 'N' end as rchrg,
      (inv.type = 'sale' and inv.party_gstin is null and inv.inter
       and inv.total > case when inv.date < date '2024-08-01' then 250000 else 100000 end) as is_b2cl
    from inv left join itms on itms.invoice_id = inv.id
  ),
  b2b as (
    select jsonb_agg(jsonb_build_object('ctin', g.ctin, 'inv', g.inv) order by g.ctin) as v from (
      select d.party_gstin as ctin, jsonb_agg(jsonb_build_object('inum', d.invoice_number, 'idt', d.idt,
        'val', d.total, 'pos', d.pos, 'rchrg', d.rchrg, 'inv_typ', d.inv_typ, 'itms', d.itms)
        order by d.date, d.invoice_number) as inv
      from doc d where d.type = 'sale' and d.party_gstin is not null group by d.party_gstin) g
  ),
  b2cl as (
    select jsonb_agg(jsonb_build_object('pos', g.pos, 'inv', g.inv) order by g.pos) as v from (
      select d.pos, jsonb_agg(jsonb_build_object('inum', d.invoice_number, 'idt', d.idt, 'val', d.total,
        'itms', d.itms) order by d.date, d.invoice_number) as inv
      from doc d where d.is_b2cl group by d.pos) g
  ),
  b2cs as (
    select jsonb_agg(jsonb_build_object('sply_ty', g.sply_ty, 'pos', g.pos, 'typ', 'OE', 'rt', g.rt,
      'txval', g.txval, 'iamt', g.iamt, 'camt', g.camt, 'samt', g.samt, 'csamt', g.csamt)
      order by g.pos, g.rt, g.sply_ty) as v from (
      select case when d.inter then 'INTER' else 'INTRA' end as sply_ty, d.pos, r.rt,
        sum(r.txval) as txval, sum(r.iamt) as iamt, sum(r.camt) as camt, sum(r.samt) as samt, sum(r.csamt) as csamt
      from doc d join rates r on r.invoice_id = d.id
      where d.type = 'sale' and d.party_gstin is null and not d.is_b2cl
      group by 1, 2, 3) g
  ),
  cdnr as (
    select jsonb_agg(jsonb_build_object('ctin', g.ctin, 'nt', g.nt) order by g.ctin) as v from (
      select d.party_gstin as ctin, jsonb_agg(jsonb_build_object('ntty', 'C', 'nt_num', d.invoice_number,
        'nt_dt', d.idt, 'val', d.total, 'pos', d.pos, 'rchrg', d.rchrg, 'inv_typ', d.inv_typ, 'itms', d.itms)
        order by d.date, d.invoice_number) as nt
      from doc d where d.type = 'sale_return' and d.party_gstin is not null group by d.party_gstin) g
  ),
  hsn as (
    select jsonb_agg(jsonb_build_object('num', g.n, 'hsn_sc', g.hsn_sc, 'desc', g.descr, 'uqc', g.uqc,
      'qty', g.qty, 'rt', g.rt, 'txval', g.txval, 'iamt', g.iamt, 'camt', g.camt, 'samt', g.samt,
      'csamt', g.csamt) order by g.n) as v from (
      select row_number() over (order by h.hsn_sc, h.uqc, h.rt) as n, h.* from (
        select coalesce(l.hsn_code, '') as hsn_sc, min(l.item_name) as descr,
          coalesce(upper(u.uqc), 'OTH') as uqc, l.gst_rate as rt,
          sum(s.sign * l.qty) as qty, sum(s.sign * l.taxable_value) as txval, sum(s.sign * l.igst) as iamt,
          sum(s.sign * l.cgst) as camt, sum(s.sign * l.sgst) as samt, sum(s.sign * l.cess_amount) as csamt
        from invoicing.invoice_items l
        join inv on inv.id = l.invoice_id
        cross join lateral (select case inv.type when 'sale' then 1 else -1 end as sign) s
        left join invoicing.units u on u.company_id = l.company_id and upper(u.short_name) = upper(l.unit)
        where l.company_id = (select id from company)
        group by 1, 3, 4) h) g
  )
  select jsonb_build_object(
    'gstin', (select gstin from biz),
    'fp', to_char(p_to, 'MMYYYY'),
    'period', jsonb_build_object('from', p_from, 'to', p_to),
    'b2b', coalesce((select v from b2b), '[]'),
    'b2cl', coalesce((select v from b2cl), '[]'),
    'b2cs', coalesce((select v from b2cs), '[]'),
    'cdnr', coalesce((select v from cdnr), '[]'),
    'hsn', jsonb_build_object('data', coalesce((select v from hsn), '[]')))
$$;

grant execute on function invoicing.report_gstr1(date, date) to authenticated, service_role;
revoke execute on function invoicing.report_gstr1(date, date) from anon, public;
