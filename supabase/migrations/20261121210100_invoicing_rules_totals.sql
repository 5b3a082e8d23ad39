-- Invoicing business rules, part 2: invoice and document money. Lines are priced by a BEFORE
-- trigger (whatever the client sent for taxable/tax/amount is replaced); headers are recomputed
-- from their lines by a statement-level trigger (one UPDATE per statement, so a 500-line bulk
-- insert recomputes its invoice once, not 500 times).
--
-- Which writes are "the system's": pg_trigger_depth() > 1 means the statement was issued by
-- another trigger (a header recompute, a payment settling an invoice, a stock move). Those may
-- write the derived columns; a client's own statement (depth 1) may not.
--
-- Every trigger function here is security definer with a fixed search_path and filters by the
-- row's own company_id: the rules must hold whatever the caller's per-resource permissions are
-- (an accountant who may not read parties still gets the right GST split).

-- ── header helpers ───────────────────────────────────────────────────────────────────────────

-- Fill the snapshots the client omitted from the party (Rule 46 wants them on the invoice).
create or replace function app.invoicing_fill_party_snapshot(
  p_company_id uuid, p_party_id uuid, inout party_name text, inout party_gstin varchar,
  inout party_state text, inout place_of_supply char(2)
)
language plpgsql stable security definer set search_path = '' as $$
declare
  p invoicing.parties%rowtype;
begin
  if p_party_id is not null then
    select * into p from invoicing.parties where company_id = p_company_id and id = p_party_id;
    if found then
      party_name := coalesce(party_name, p.name);
      party_gstin := coalesce(party_gstin, p.gstin);
      party_state := coalesce(party_state, p.state);
      place_of_supply := coalesce(place_of_supply, p.state_code, app.invoicing_state_code(p.state));
    else
      -- Not a party of this company: the composite foreign key refuses the row right after this
      -- trigger (23503 naming party_id). A stand-in name only keeps party_name's NOT NULL from
      -- reporting the wrong field first; it can never be stored.
      party_name := coalesce(party_name, '(unknown party)');
    end if;
  end if;
  place_of_supply := coalesce(place_of_supply, app.invoicing_state_code(party_state));
end $$;

-- ── invoices: BEFORE row trigger ─────────────────────────────────────────────────────────────
create or replace function app.invoicing_invoice_before() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  orig invoicing.invoices%rowtype;
  system_write boolean := pg_trigger_depth() > 1;
begin
  if tg_op = 'INSERT' or new.party_id is distinct from old.party_id then
    select s.party_name, s.party_gstin, s.party_state, s.place_of_supply
      into new.party_name, new.party_gstin, new.party_state, new.place_of_supply
    from app.invoicing_fill_party_snapshot(new.company_id, new.party_id, new.party_name,
      new.party_gstin, new.party_state, new.place_of_supply) s;
  end if;

  -- credit / debit notes name the invoice they correct (s.34, Rule 53)
  if new.type in ('sale_return', 'purchase_return') then
    -- required when created or when the client clears it; deleting the original invoice
    -- (the foreign key's SET NULL, a system write) leaves the number/date snapshot instead
    if new.original_invoice_id is null and not system_write
       and (tg_op = 'INSERT' or old.original_invoice_id is not null or old.type <> new.type) then
      raise exception 'original_invoice_id is required for a % (the invoice it returns)', new.type
        using errcode = '23514', column = 'original_invoice_id';
    end if;
    if new.original_invoice_id is not null and (tg_op = 'INSERT'
       or new.original_invoice_id is distinct from old.original_invoice_id or new.type is distinct from old.type) then
      select * into orig from invoicing.invoices
      where company_id = new.company_id and id = new.original_invoice_id;
      if not found then
        raise exception 'original_invoice_id does not refer to an invoice of this company'
          using errcode = '23503', column = 'original_invoice_id';
      end if;
      if orig.type <> (case new.type when 'sale_return' then 'sale' else 'purchase' end) then
        raise exception 'original_invoice_id: a % must refer to a % invoice, not a %', new.type,
          (case new.type when 'sale_return' then 'sale' else 'purchase' end), orig.type
          using errcode = '23514', column = 'original_invoice_id';
      end if;
      new.original_invoice_number := coalesce(new.original_invoice_number, orig.invoice_number);
      new.original_invoice_date := coalesce(new.original_invoice_date, orig.date);
    end if;
  elsif new.original_invoice_id is not null then
    raise exception 'original_invoice_id is only for sale_return and purchase_return'
      using errcode = '23514', column = 'original_invoice_id';
  end if;

  -- Totals of an invoice with lines are the lines' (recomputed by the lines' trigger); a
  -- client's edit of them is ignored. A header-only invoice keeps what the client sent.
  if tg_op = 'UPDATE' and not system_write and exists (
      select from invoicing.invoice_items i where i.company_id = new.company_id and i.invoice_id = new.id) then
    new.subtotal := old.subtotal; new.discount_amount := old.discount_amount;
    new.cgst := old.cgst; new.sgst := old.sgst; new.igst := old.igst; new.cess := old.cess;
    new.round_off := old.round_off; new.total := old.total;
  end if;
  if tg_op = 'UPDATE' and not system_write then
    -- loyalty is applied once, at creation
    new.loyalty_points_redeemed := old.loyalty_points_redeemed;
    new.loyalty_points_earned := old.loyalty_points_earned;
    new.loyalty_amount := old.loyalty_amount;
  end if;

  new.status := app.invoicing_derive_status(new.total, new.amount_paid);
  return new;
end $$;

create trigger rules_before before insert or update on invoicing.invoices
  for each row execute function app.invoicing_invoice_before();

-- ── lines (invoice_items and document_items): BEFORE row trigger ───────────────────────────
-- TG_ARGV[0] = the header table ('invoices' | 'documents').
create or replace function app.invoicing_line_before() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  head record;
  it_hsn text;
  it_primary text;
  it_secondary text;
  it_conversion numeric;
  it_cess numeric := 0;
  inter boolean;
  m app.invoicing_line_money;
  parent_id uuid := case tg_argv[0] when 'invoices' then (to_jsonb(new) ->> 'invoice_id')::uuid
                                    else (to_jsonb(new) ->> 'document_id')::uuid end;
begin
  if tg_argv[0] = 'invoices' then
    select h.place_of_supply, h.party_id, h.party_state into head
    from invoicing.invoices h where h.company_id = new.company_id and h.id = parent_id;
  else
    select h.place_of_supply, h.party_id, h.party_state into head
    from invoicing.documents h where h.company_id = new.company_id and h.id = parent_id;
  end if;
  -- an unknown header is left to the foreign key (its error names the field)
  inter := coalesce(app.invoicing_is_inter_state(new.company_id, head.place_of_supply, head.party_id, head.party_state), false);

  if new.item_id is not null then
    select i.hsn_code, i.primary_unit, i.secondary_unit, i.conversion_rate, i.cess_rate
      into it_hsn, it_primary, it_secondary, it_conversion, it_cess
    from invoicing.items i where i.company_id = new.company_id and i.id = new.item_id;
    new.hsn_code := coalesce(new.hsn_code, it_hsn);
    new.unit := coalesce(new.unit, it_primary);
  end if;
  -- quantity in the item's primary unit (1 BOX = conversion_rate PCS): a line in the secondary
  -- unit moves qty / conversion_rate
  new.base_qty := case
    when it_secondary is not null and upper(new.unit) = upper(it_secondary)
         and upper(coalesce(it_primary, '')) <> upper(it_secondary)
      then round(new.qty / it_conversion, 3)
    else new.qty end;

  m := app.invoicing_price_line(new.qty, new.rate, new.discount_pct, new.discount_amount,
    new.gst_rate, coalesce(it_cess, 0), new.price_incl_tax, inter);
  new.discount_amount := m.discount_amount;
  new.taxable_value := m.taxable_value;
  new.cgst := m.cgst; new.sgst := m.sgst; new.igst := m.igst;
  new.cess_amount := m.cess_amount;
  new.gst_amount := m.gst_amount;
  new.amount := m.amount;
  return new;
end $$;

create trigger rules_price before insert or update on invoicing.invoice_items
  for each row execute function app.invoicing_line_before('invoices');
create trigger rules_price before insert or update on invoicing.document_items
  for each row execute function app.invoicing_line_before('documents');

-- ── headers from lines: AFTER statement triggers ─────────────────────────────────────────────
-- subtotal = Σtaxable; heads = Σ lines; pre = subtotal + taxes; round_off = round(pre) − pre
-- when business_profile.round_off_enabled; total = pre + round_off. No lines left → zeros.
-- One function for both header kinds: invoices with invoice_items, documents with
-- document_items (the same money columns). Only headers whose money changes are written.
create or replace function app.invoicing_recompute_headers(p_header text, p_company_id uuid, p_ids uuid[]) returns void
language plpgsql security definer set search_path = '' as $$
declare
  line_table constant text := case p_header when 'invoices' then 'invoice_items' when 'documents' then 'document_items' end;
  parent constant text := case p_header when 'invoices' then 'invoice_id' when 'documents' then 'document_id' end;
begin
  if line_table is null then
    raise exception 'no lines table for header table %', p_header;
  end if;
  execute format($q$
    update invoicing.%1$I h set
      subtotal = s.subtotal, discount_amount = s.discount, cgst = s.cgst, sgst = s.sgst,
      igst = s.igst, cess = s.cess,
      round_off = case when s.round then round(s.pre) - s.pre else 0 end,
      total = case when s.round then round(s.pre) else s.pre end
    from (
      select h2.id,
        coalesce(sum(l.taxable_value), 0) as subtotal, coalesce(sum(l.discount_amount), 0) as discount,
        coalesce(sum(l.cgst), 0) as cgst, coalesce(sum(l.sgst), 0) as sgst,
        coalesce(sum(l.igst), 0) as igst, coalesce(sum(l.cess_amount), 0) as cess,
        coalesce(sum(l.taxable_value + l.cgst + l.sgst + l.igst + l.cess_amount), 0) as pre,
        coalesce((select b.round_off_enabled from invoicing.business_profile b where b.company_id = $1), true) as round
      from invoicing.%1$I h2
      left join invoicing.%2$I l on l.company_id = h2.company_id and l.%3$I = h2.id
      where h2.company_id = $1 and h2.id = any ($2)
      group by h2.id
    ) s
    where h.company_id = $1 and h.id = s.id
      and (h.subtotal, h.discount_amount, h.cgst, h.sgst, h.igst, h.cess, h.total)
        is distinct from (s.subtotal, s.discount, s.cgst, s.sgst, s.igst, s.cess,
                          case when s.round then round(s.pre) else s.pre end)
    $q$, p_header, line_table, parent)
  using p_company_id, p_ids;
end $$;

-- TG_ARGV[0] = 'invoices' | 'documents'. Collects the headers touched by the statement.
create or replace function app.invoicing_lines_after() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  r record;
  parent text := case tg_argv[0] when 'invoices' then 'invoice_id' else 'document_id' end;
begin
  for r in execute format($q$
      select company_id, array_agg(distinct parent_id) as ids from (
        %s
      ) t group by company_id $q$,
      case tg_op
        when 'INSERT' then format('select company_id, %I as parent_id from new_rows', parent)
        when 'DELETE' then format('select company_id, %I as parent_id from old_rows', parent)
        else format('select company_id, %1$I as parent_id from new_rows union all select company_id, %1$I from old_rows', parent)
      end)
  loop
    perform app.invoicing_recompute_headers(tg_argv[0], r.company_id, r.ids);
  end loop;
  return null;
end $$;

create trigger rules_totals_ins after insert on invoicing.invoice_items
  referencing new table as new_rows for each statement execute function app.invoicing_lines_after('invoices');
create trigger rules_totals_upd after update on invoicing.invoice_items
  referencing old table as old_rows new table as new_rows for each statement execute function app.invoicing_lines_after('invoices');
create trigger rules_totals_del after delete on invoicing.invoice_items
  referencing old table as old_rows for each statement execute function app.invoicing_lines_after('invoices');
create trigger rules_totals_ins after insert on invoicing.document_items
  referencing new table as new_rows for each statement execute function app.invoicing_lines_after('documents');
create trigger rules_totals_upd after update on invoicing.document_items
  referencing old table as old_rows new table as new_rows for each statement execute function app.invoicing_lines_after('documents');
create trigger rules_totals_del after delete on invoicing.document_items
  referencing old table as old_rows for each statement execute function app.invoicing_lines_after('documents');

-- ── a header whose place of supply changes re-prices its lines (CGST+SGST ↔ IGST) ──────────
create or replace function app.invoicing_header_reprice() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_table_name = 'invoices' then
    update invoicing.invoice_items set gst_rate = gst_rate
    where company_id = new.company_id and invoice_id = new.id;
  else
    update invoicing.document_items set gst_rate = gst_rate
    where company_id = new.company_id and document_id = new.id;
  end if;
  return null;
end $$;

create trigger rules_reprice after update of place_of_supply, party_id, party_state on invoicing.invoices
  for each row when (old.place_of_supply is distinct from new.place_of_supply
    or old.party_id is distinct from new.party_id or old.party_state is distinct from new.party_state)
  execute function app.invoicing_header_reprice();
create trigger rules_reprice after update of place_of_supply, party_id, party_state on invoicing.documents
  for each row when (old.place_of_supply is distinct from new.place_of_supply
    or old.party_id is distinct from new.party_id or old.party_state is distinct from new.party_state)
  execute function app.invoicing_header_reprice();

-- documents: the same snapshots and the same protection of line-derived totals
create or replace function app.invoicing_document_before() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' or new.party_id is distinct from old.party_id then
    select s.party_name, s.party_gstin, s.party_state, s.place_of_supply
      into new.party_name, new.party_gstin, new.party_state, new.place_of_supply
    from app.invoicing_fill_party_snapshot(new.company_id, new.party_id, new.party_name,
      new.party_gstin, new.party_state, new.place_of_supply) s;
  end if;
  if tg_op = 'UPDATE' and pg_trigger_depth() = 1 and exists (
      select from invoicing.document_items i where i.company_id = new.company_id and i.document_id = new.id) then
    new.subtotal := old.subtotal; new.discount_amount := old.discount_amount;
    new.cgst := old.cgst; new.sgst := old.sgst; new.igst := old.igst; new.cess := old.cess;
    new.round_off := old.round_off; new.total := old.total;
  end if;
  return new;
end $$;

create trigger rules_before before insert or update on invoicing.documents
  for each row execute function app.invoicing_document_before();
