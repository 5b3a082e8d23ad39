-- Invoicing business rules, part 4: stock. items.stock (primary unit) moves in the same
-- transaction as the change that causes it:
--   sale −, sale_return +, purchase +, purchase_return −   (lines of items with track_stock)
--   delivery challan − when business_profile.settings.challan_reduces_stock (stock_applied);
--     an invoice made from such a challan (source_document_id) does not move stock again
--   stock adjustment: add +, reduce −, set = qty (stock_before/stock_after recorded)
-- Edits reverse the old effect and apply the new one; deletes reverse. A new item starts at
-- opening_stock; editing opening_stock shifts stock by the difference.
--
-- Negative-stock policy: allowed by default (a shop sells before the purchase is keyed in);
-- with settings.allow_negative_stock = false a move that leaves an item below zero is refused
-- with a 23514 naming 'qty'. Increases are never refused.

-- Sign of an invoice type's effect on stock; 0 when it must not move stock (an invoice made
-- from a challan that already did).
create or replace function app.invoicing_invoice_stock_sign(p_company_id uuid, p_type text, p_source_document_id uuid)
returns integer
language sql stable security definer set search_path = '' as $$
  select case
    when p_type = 'sale' and exists (
      select from invoicing.documents d
      where d.company_id = p_company_id and d.id = p_source_document_id
        and d.doc_type = 'delivery_challan' and d.stock_applied) then 0
    when p_type in ('sale', 'purchase_return') then -1
    else 1
  end
$$;

-- Applies per-item deltas (jsonb {item_id: delta}) with the negative-stock policy.
create or replace function app.invoicing_move_stock(p_company_id uuid, p_deltas jsonb) returns void
language plpgsql security definer set search_path = '' as $$
declare
  bad record;
begin
  if p_deltas is null or p_deltas = '{}'::jsonb then
    return;
  end if;
  with d as (
    select key::uuid as item_id, value::numeric as delta from jsonb_each_text(p_deltas)
  ), moved as (
    update invoicing.items i set stock = i.stock + d.delta
    from d
    where i.company_id = p_company_id and i.id = d.item_id and i.track_stock and d.delta <> 0
    returning i.name, i.stock, d.delta
  )
  select m.name, m.stock into bad from moved m
  where m.delta < 0 and m.stock < 0
    and not coalesce((select (b.settings ->> 'allow_negative_stock')::boolean
                      from invoicing.business_profile b where b.company_id = p_company_id), true)
  limit 1;
  if found then
    raise exception 'qty: not enough stock of "%" (it would become %) and negative stock is disabled',
      bad.name, bad.stock using errcode = '23514', column = 'qty';
  end if;
end $$;

-- ── invoice lines: AFTER statement trigger ───────────────────────────────────────────────────
-- Lines whose invoice no longer exists (a cascade from deleting the invoice) are skipped: the
-- invoice's own BEFORE DELETE trigger reversed them while it could still see its type.
create or replace function app.invoicing_invoice_lines_stock() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  r record;
begin
  for r in execute format($q$
    select l.company_id, jsonb_object_agg(l.item_id, l.delta) as deltas from (
      select x.company_id, x.item_id,
             sum(x.dir * x.base_qty * app.invoicing_invoice_stock_sign(h.company_id, h.type, h.source_document_id)) as delta
      from (%s) x
      join invoicing.invoices h on h.company_id = x.company_id and h.id = x.invoice_id
      where x.item_id is not null
      group by x.company_id, x.item_id
    ) l group by l.company_id $q$,
    case tg_op
      when 'INSERT' then 'select company_id, invoice_id, item_id, base_qty, 1 as dir from new_rows'
      when 'DELETE' then 'select company_id, invoice_id, item_id, base_qty, -1 as dir from old_rows'
      else 'select company_id, invoice_id, item_id, base_qty, 1 as dir from new_rows
            union all select company_id, invoice_id, item_id, base_qty, -1 from old_rows'
    end)
  loop
    perform app.invoicing_move_stock(r.company_id, r.deltas);
  end loop;
  return null;
end $$;

create trigger rules_stock_ins after insert on invoicing.invoice_items
  referencing new table as new_rows for each statement execute function app.invoicing_invoice_lines_stock();
create trigger rules_stock_upd after update on invoicing.invoice_items
  referencing old table as old_rows new table as new_rows for each statement execute function app.invoicing_invoice_lines_stock();
create trigger rules_stock_del after delete on invoicing.invoice_items
  referencing old table as old_rows for each statement execute function app.invoicing_invoice_lines_stock();

-- ── invoices: type / challan link changes, and deletion ──────────────────────────────────────
create or replace function app.invoicing_invoice_stock() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  old_sign integer := 0;
  new_sign integer := 0;
  deltas jsonb;
begin
  if tg_op in ('UPDATE', 'DELETE') then
    old_sign := app.invoicing_invoice_stock_sign(old.company_id, old.type, old.source_document_id);
  end if;
  if tg_op = 'UPDATE' then
    new_sign := app.invoicing_invoice_stock_sign(new.company_id, new.type, new.source_document_id);
  end if;
  if new_sign <> old_sign then
    select jsonb_object_agg(item_id, delta) into deltas from (
      select l.item_id, sum(l.base_qty) * (new_sign - old_sign) as delta
      from invoicing.invoice_items l
      where l.company_id = old.company_id and l.invoice_id = old.id and l.item_id is not null
      group by l.item_id) s;
    perform app.invoicing_move_stock(old.company_id, deltas);
  end if;
  -- an invoice made from a challan marks the challan converted
  if tg_op <> 'DELETE' and new.source_document_id is not null
     and (tg_op = 'INSERT' or new.source_document_id is distinct from old.source_document_id) then
    update invoicing.documents set status = 'converted', converted_invoice_id = new.id
    where company_id = new.company_id and id = new.source_document_id and converted_invoice_id is null;
  end if;
  return case tg_op when 'DELETE' then old else null end;
end $$;

create trigger rules_stock before delete on invoicing.invoices
  for each row execute function app.invoicing_invoice_stock();
create trigger rules_stock_change after insert or update of type, source_document_id on invoicing.invoices
  for each row execute function app.invoicing_invoice_stock();

-- ── delivery challans ────────────────────────────────────────────────────────────────────────
create or replace function app.invoicing_document_stock_flag() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    new.stock_applied := new.doc_type = 'delivery_challan' and coalesce((
      select (b.settings ->> 'challan_reduces_stock')::boolean
      from invoicing.business_profile b where b.company_id = new.company_id), true);
  elsif pg_trigger_depth() = 1 then
    -- decided once, at creation: flipping it later would leave stock inconsistent
    new.stock_applied := old.stock_applied;
    if new.doc_type is distinct from old.doc_type and old.stock_applied then
      raise exception 'doc_type of a delivery challan that moved stock cannot change'
        using errcode = '23514', column = 'doc_type';
    end if;
  end if;
  return new;
end $$;

create trigger rules_stock_flag before insert or update on invoicing.documents
  for each row execute function app.invoicing_document_stock_flag();

create or replace function app.invoicing_document_lines_stock() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  r record;
begin
  for r in execute format($q$
    select l.company_id, jsonb_object_agg(l.item_id, l.delta) as deltas from (
      select x.company_id, x.item_id, sum(-x.dir * x.base_qty) as delta
      from (%s) x
      join invoicing.documents h on h.company_id = x.company_id and h.id = x.document_id
      where x.item_id is not null and h.doc_type = 'delivery_challan' and h.stock_applied
      group by x.company_id, x.item_id
    ) l group by l.company_id $q$,
    case tg_op
      when 'INSERT' then 'select company_id, document_id, item_id, base_qty, 1 as dir from new_rows'
      when 'DELETE' then 'select company_id, document_id, item_id, base_qty, -1 as dir from old_rows'
      else 'select company_id, document_id, item_id, base_qty, 1 as dir from new_rows
            union all select company_id, document_id, item_id, base_qty, -1 from old_rows'
    end)
  loop
    perform app.invoicing_move_stock(r.company_id, r.deltas);
  end loop;
  return null;
end $$;

create trigger rules_stock_ins after insert on invoicing.document_items
  referencing new table as new_rows for each statement execute function app.invoicing_document_lines_stock();
create trigger rules_stock_upd after update on invoicing.document_items
  referencing old table as old_rows new table as new_rows for each statement execute function app.invoicing_document_lines_stock();
create trigger rules_stock_del after delete on invoicing.document_items
  referencing old table as old_rows for each statement execute function app.invoicing_document_lines_stock();

-- Deleting an unconverted challan restores its stock; a converted one cannot be deleted (its
-- invoice relies on it having moved the goods).
create or replace function app.invoicing_document_delete_stock() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  deltas jsonb;
begin
  if old.doc_type = 'delivery_challan' and old.stock_applied then
    if exists (select from invoicing.invoices i where i.company_id = old.company_id and i.source_document_id = old.id) then
      raise exception 'a converted delivery challan cannot be deleted: delete or unlink its invoice (source_document_id) first'
        using errcode = '23514', column = 'converted_invoice_id';
    end if;
    select jsonb_object_agg(item_id, delta) into deltas from (
      select l.item_id, sum(l.base_qty) as delta from invoicing.document_items l
      where l.company_id = old.company_id and l.document_id = old.id and l.item_id is not null
      group by l.item_id) s;
    perform app.invoicing_move_stock(old.company_id, deltas);
  end if;
  return old;
end $$;

create trigger rules_stock before delete on invoicing.documents
  for each row execute function app.invoicing_document_delete_stock();

-- ── items: opening stock, and stock as a derived column ─────────────────────────────────────
create or replace function app.invoicing_item_stock() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    new.stock := new.opening_stock;
  elsif pg_trigger_depth() = 1 then
    new.stock := old.stock + (new.opening_stock - old.opening_stock);
  end if;
  return new;
end $$;

create trigger rules_stock before insert or update on invoicing.items
  for each row execute function app.invoicing_item_stock();

-- ── stock adjustments ────────────────────────────────────────────────────────────────────────
-- Each adjustment's effect is stock_after − stock_before; reversing it subtracts that delta
-- (so reversing a 'set' undoes exactly the change it made, whatever moved stock since).
create or replace function app.invoicing_stock_adjustment() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  cur numeric;
  target numeric;
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform app.invoicing_move_stock(old.company_id,
      jsonb_build_object(old.item_id, -(coalesce(old.stock_after, 0) - coalesce(old.stock_before, 0))));
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  select i.stock into cur from invoicing.items i
  where i.company_id = new.company_id and i.id = new.item_id for update;
  if not found then
    return new;  -- the foreign key names item_id
  end if;
  target := case new.type when 'add' then cur + new.qty when 'reduce' then cur - new.qty else new.qty end;
  new.stock_before := cur;
  new.stock_after := target;
  perform app.invoicing_move_stock(new.company_id, jsonb_build_object(new.item_id, target - cur));
  return new;
end $$;

create trigger rules_stock before insert or update or delete on invoicing.stock_adjustments
  for each row execute function app.invoicing_stock_adjustment();
