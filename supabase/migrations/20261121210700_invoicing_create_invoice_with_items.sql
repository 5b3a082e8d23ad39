-- POST /v1/invoices/with-items in SQL: one invoice and its lines in one statement each, then the
-- client's totals are checked against what the rules computed. Security invoker: RLS and the
-- caller's permissions apply exactly as for two plain inserts.
--
-- * Fields the client omits are filled (party snapshots, place of supply, number, line money).
-- * Money the client sends is a claim, not an input: header subtotal / discount_amount / cgst /
--   sgst / igst / cess / round_off / total and line taxable_value / cgst / sgst / igst /
--   cess_amount / gst_amount / amount that differ from the computed value by more than 0.01 are
--   refused (23514, the message names the field, e.g. "total" or "items[1].amount").
-- * status is always derived; amount_paid is kept (money received on the invoice itself).

create or replace function invoicing.create_invoice_with_items(p_invoice jsonb, p_items jsonb)
returns jsonb
language plpgsql security invoker set search_path = '' as $$
declare
  derived_header constant text[] := array['subtotal', 'discount_amount', 'cgst', 'sgst', 'igst', 'cess', 'round_off', 'total'];
  derived_line constant text[] := array['taxable_value', 'cgst', 'sgst', 'igst', 'cess_amount', 'gst_amount', 'amount'];
  ignored constant text[] := array['status', 'balance', 'company_id', 'created_at', 'updated_at', 'items'];
  cols text[];
  bad text;
  new_invoice_id uuid;
  inv jsonb;
  mismatch record;
  lines jsonb;
begin
  if jsonb_typeof(p_invoice) is distinct from 'object' then
    raise exception 'the invoice must be a JSON object' using errcode = '22023';
  end if;
  if jsonb_typeof(p_items) is distinct from 'array' then
    raise exception 'items must be an array of invoice lines' using errcode = '23514', column = 'items';
  end if;

  -- header: the columns the client sent (minus derived ones), the rest from column defaults
  select array_agg(k), min(k) filter (where a.attname is null) into cols, bad
  from jsonb_object_keys(p_invoice) k
  left join pg_attribute a on a.attrelid = 'invoicing.invoices'::regclass and a.attname = k
    and a.attnum > 0 and not a.attisdropped
  where k <> all (derived_header) and k <> all (ignored);
  if bad is not null then
    raise exception 'unknown invoice field "%"', bad using errcode = '23514', column = bad;
  end if;
  execute format('insert into invoicing.invoices (%1$s) select %1$s from jsonb_populate_record(null::invoicing.invoices, $1) returning id',
    coalesce((select string_agg(quote_ident(c), ', ') from unnest(cols) c), 'type'))
    using p_invoice into new_invoice_id;

  -- lines: one INSERT (the header is recomputed once); unsent columns take the table's defaults
  select min(format('items[%s].%s', e.ord - 1, k)) into bad
  from jsonb_array_elements(p_items) with ordinality e (v, ord)
  cross join lateral jsonb_object_keys(case jsonb_typeof(e.v) when 'object' then e.v else '{"?": 0}' end) k
  where not exists (select from pg_attribute a where a.attrelid = 'invoicing.invoice_items'::regclass
                    and a.attname = k and a.attnum > 0 and not a.attisdropped);
  if bad is not null then
    raise exception 'unknown or malformed line field "%"', bad using errcode = '23514', column = 'items';
  end if;
  create temp table if not exists pg_temp.with_items_lines (id uuid primary key, ord integer, v jsonb) on commit drop;
  truncate pg_temp.with_items_lines;
  insert into pg_temp.with_items_lines select gen_random_uuid(), e.ord - 1, e.v from jsonb_array_elements(p_items) with ordinality e (v, ord);
  insert into invoicing.invoice_items (id, invoice_id, item_id, item_name, hsn_code, unit, qty, rate,
    price_incl_tax, discount_pct, discount_amount, gst_rate, sort_order)
  select t.id, new_invoice_id, l.item_id, l.item_name, l.hsn_code, l.unit, coalesce(l.qty, 1), coalesce(l.rate, 0),
    coalesce(l.price_incl_tax, false), coalesce(l.discount_pct, 0), coalesce(l.discount_amount, 0),
    coalesce(l.gst_rate, 0), coalesce(l.sort_order, t.ord)
  from pg_temp.with_items_lines t
  cross join lateral jsonb_populate_record(null::invoicing.invoice_items, t.v) l
  order by t.ord;

  -- the client's claims against the computed money
  select format('items[%s].%s', t.ord, f) as field, t.v ->> f as sent, (to_jsonb(r) ->> f) as computed into mismatch
  from pg_temp.with_items_lines t
  join invoicing.invoice_items r on r.id = t.id
  cross join unnest(derived_line) f
  where t.v ? f and jsonb_typeof(t.v -> f) in ('number', 'string')
    and abs((t.v ->> f)::numeric - (to_jsonb(r) ->> f)::numeric) > 0.01
  order by t.ord, array_position(derived_line, f) limit 1;
  if found then
    raise exception '%: sent % but the line computes to %', mismatch.field, mismatch.sent, mismatch.computed
      using errcode = '23514', column = mismatch.field;
  end if;
  select to_jsonb(i) into inv from invoicing.invoices i where i.id = new_invoice_id;
  select f as field, p_invoice ->> f as sent, inv ->> f as computed into mismatch
  from unnest(derived_header) f
  where p_invoice ? f and jsonb_typeof(p_invoice -> f) in ('number', 'string')
    and abs((p_invoice ->> f)::numeric - (inv ->> f)::numeric) > 0.01
  order by array_position(derived_header, f) limit 1;
  if found then
    raise exception '%: sent % but the lines add up to %', mismatch.field, mismatch.sent, mismatch.computed
      using errcode = '23514', column = mismatch.field;
  end if;

  select coalesce(jsonb_agg(to_jsonb(r) order by r.sort_order, t.ord), '[]') into lines
  from invoicing.invoice_items r join pg_temp.with_items_lines t on t.id = r.id;
  return inv || jsonb_build_object('items', lines);
end $$;

revoke all on function invoicing.create_invoice_with_items(jsonb, jsonb) from public, anon;
grant execute on function invoicing.create_invoice_with_items(jsonb, jsonb) to authenticated, service_role;
